package io.jobfoundry.api;

import io.jobfoundry.auth.Role;
import io.jobfoundry.jobs.model.BulkAction;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.JobFilter;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The operator's views and actions across types (API.md, "Operating the queue"): the listing and bulk actions. */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
public class QueueResource {

    private final CallerJobs jobs;
    private final RequestBodies bodies;
    private final ApiConfig config;

    QueueResource(CallerJobs jobs, RequestBodies bodies, ApiConfig config) {
        this.jobs = jobs;
        this.bodies = bodies;
        this.config = config;
    }

    /** As {@code GET /v1/jobs/{type}} (the same filters, read by {@link ListQuery}), over the types {@code type} matches. */
    @Operation(operationId = "listAllJobs", summary = "List jobs across types",
            description = "In (type, id) order, one page at a time: pass the next of a page as cursor until it is null. "
                    + "A filtered page may hold fewer than limit jobs, even none, while next is not null.")
    @Tag(name = "Jobs")
    @Parameter(name = "type", in = ParameterIn.QUERY,
            description = "only types this name or glob (* and ?) matches; absent means every type",
            schema = @Schema(type = SchemaType.STRING))
    @Parameter(name = "state", in = ParameterIn.QUERY, ref = "ListState")
    @Parameter(name = "result", in = ParameterIn.QUERY, ref = "ListResult")
    @Parameter(name = "group", in = ParameterIn.QUERY, ref = "ListGroup")
    @Parameter(name = "limit", in = ParameterIn.QUERY, ref = "ListLimit")
    @Parameter(name = "cursor", in = ParameterIn.QUERY, ref = "ListCursor")
    @APIResponse(responseCode = "200", description = "A page of jobs",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = JobListDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.VIEWER_NAME)
    @GET
    @Path("jobs")
    public JobListDto list(@QueryParam("type") String type, @QueryParam("state") String state,
            @QueryParam("result") String result, @QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @Context UriInfo uri) {
        ListQuery query = ListQuery.of(state, result, limit, uri, config);
        return JobListDto.of(jobs.jobs().listAll(new JobFilter(type, query.state(), query.result(), query.group()),
                query.limit(), cursor));
    }

    @Operation(operationId = "bulk", summary = "Cancel, retry or remove every job a filter matches",
            description = "Each matching job as the single call does it: cancel as POST .../cancel, retry as PUT of a "
                    + "finished job (a fresh run; jobs not finished are left alone), remove as DELETE; a running "
                    + "job's processor gets its 409. Up to limit matching jobs, 100 per transaction, each job checked "
                    + "again in its transaction; the bulk as a whole is not atomic. Repeating it acts only on what "
                    + "still matches: with more matching jobs than limit, on up to limit more.")
    @Tag(name = "Jobs")
    @RequestBody(ref = "Bulk")
    @APIResponse(responseCode = "200", description = "How many jobs matched, and how many the action changed",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = BulkResultDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER, description = "Refused here (400): a "
            + "repeated bulk action acts on what matches when it comes, which no key can tell from the first.")
    @RolesAllowed(Role.ADMIN_NAME)
    @POST
    @Path("bulk")
    public BulkResultDto bulk(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            @Context HttpServerRequest http, byte[] body) {
        IdempotencyKeys.refuse(http, "a repeated bulk action acts on the jobs that match when it comes, which no key "
                + "can tell from the first; send it once, and list what matches before sending it again");
        JsonBody request = bodies.read(contentType, body).allow("action", "filter", "limit");
        // Every member is read and checked before anything is done: a bad one changes nothing.
        JsonBody filter = request.object("filter").orElseThrow(() -> new InvalidInputException("filter",
                "filter is required: {\"type\": a type or a glob, and optionally state, result and group}"))
                .allow("type", "state", "result", "group");
        String type = filter.requiredString("type");
        JobState state = filter.string("state").map(text -> JobBodies.state("filter.state", text)).orElse(null);
        JobResult result = filter.string("result").map(text -> JobBodies.result("filter.result", text)).orElse(null);
        String group = filter.string("group").orElse(null);
        BulkAction action = action(request.requiredString("action"));
        int limit = request.integer("limit", 1, BulkAction.MAX_LIMIT).orElse(BulkAction.DEFAULT_LIMIT);
        JobFilter matching;
        try {
            matching = new JobFilter(type, state, result, group);
        } catch (InvalidJobRequestException e) {
            throw new InvalidInputException("filter." + e.field(), "filter." + e.getMessage());
        }
        return BulkResultDto.of(jobs.jobs().bulk(action, matching, limit));
    }

    private static BulkAction action(String text) {
        for (BulkAction action : BulkAction.values()) {
            if (action.wireName().equals(text)) {
                return action;
            }
        }
        throw new InvalidInputException("action", "action is \"cancel\", \"retry\" or \"remove\", not "
                + Problems.printable(text));
    }
}
