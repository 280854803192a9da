package io.jobfoundry.api;

import io.jobfoundry.auth.Role;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.CallKey;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobNotFoundException;
import io.jobfoundry.jobs.model.JobState;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.ResponseHeader;

/** Creating, reading and managing jobs, and the processor's calls on one job (API.md). */
@Path("/v1/jobs/{type}")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    private final CallerJobs jobs;
    private final JobEventStream events;
    private final RequestBodies bodies;
    private final ApiConfig config;

    JobsResource(CallerJobs jobs, JobEventStream events, RequestBodies bodies, ApiConfig config) {
        this.jobs = jobs;
        this.events = events;
        this.bodies = bodies;
        this.config = config;
    }

    @Operation(operationId = "createJob", summary = "Add a job with a generated id",
            description = "A new pending job with a random 22-character id, due at scheduledAt (default now; with a "
                    + "CRON repeat, its first slot).")
    @Tag(name = "Jobs")
    @RequestBody(ref = "JobChanges")
    @APIResponse(responseCode = "201", description = "The job was added",
            headers = @Header(name = "Location", ref = "Location"),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER, description = "Refused here (400): a "
            + "repeat of a create could not be told from a new job, as each generates an id. PUT with your own id "
            + "takes the key.")
    @RolesAllowed(Role.PRODUCER_NAME)
    @POST
    public CompletionStage<Response> create(@PathParam("type") String type,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            @Context HttpServerRequest request, @Context UriInfo uri, byte[] body) {
        IdempotencyKeys.refuse(request, "a repeat could not be told from a new job, as each generates an id; "
                + "add the job with PUT /v1/jobs/{type}/{id}, whose repeats the key makes safe");
        // Answered on the event loop: no worker thread waits for the commit (Suspended).
        return Suspended.onRequestContext(jobs.jobs().createAsync(type, JobBodies.changes(bodies.read(contentType, body))),
                added -> created(uri, added));
    }

    @Operation(operationId = "putJob", summary = "Add a job, or update or re-enqueue an existing one",
            description = "couch_jobs add. New: pending. Pending: the members given are applied. Running: flagged "
                    + "resubmit (priority, repeat, maxAttempts apply at once; scheduledAt and group to the next run; "
                    + "data is not applied). Finished: pending again, a fresh run.")
    @Tag(name = "Jobs")
    @RequestBody(ref = "JobChanges")
    @APIResponse(responseCode = "201", description = "The job was added",
            headers = @Header(name = "Location", ref = "Location"),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDto.class)))
    @APIResponse(responseCode = "200", description = "The job existed and was updated",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER) // described by ParameterDocs
    @RolesAllowed(Role.PRODUCER_NAME)
    @PUT
    @Path("{id}")
    public CompletionStage<Response> put(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            @Context HttpServerRequest request, @Context UriInfo uri, byte[] body) {
        CallKey key = IdempotencyKeys.of(request);
        JobChanges changes = JobBodies.changes(bodies.read(contentType, body));
        return Suspended.onRequestContext(jobs.jobs().putAsync(type, id, changes, key),
                added -> added.created() ? created(uri, added) : Response.ok(JobDto.of(added.job())).build());
    }

    /**
     * The job; with {@code waitFor} the answer waits (no thread held) until the job is in that state
     * or {@code timeout} milliseconds have passed, and then is the job as it is (couch_jobs' wait).
     */
    @Operation(operationId = "getJob", summary = "Read a job, optionally waiting until it is in a state",
            description = "With waitFor the answer comes as soon as the job is in that state (at once if it is), or "
                    + "with the job as it is when timeout ends: compare state to tell which (couch_jobs wait). "
                    + "A job removed while the call waits is 404.")
    @Tag(name = "Jobs")
    @Parameter(name = "waitFor", in = ParameterIn.QUERY, description = "answer once the job is in this state",
            schema = @Schema(type = SchemaType.STRING, enumeration = {"pending", "running", "finished"}))
    @Parameter(name = "timeout", in = ParameterIn.QUERY,
            description = "milliseconds to wait (only with waitFor); at most jobfoundry.api.max-wait",
            schema = @Schema(type = SchemaType.INTEGER, minimum = "0", maximum = "300000", defaultValue = "30000"))
    @APIResponse(responseCode = "200", description = "The job",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "JobNotFound")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.VIEWER_NAME)
    @GET
    @Path("{id}")
    public CompletionStage<JobDto> get(@PathParam("type") String type, @PathParam("id") String id,
            @QueryParam("waitFor") String waitFor, @QueryParam("timeout") String timeout) {
        if (waitFor == null) {
            if (timeout != null) {
                throw new InvalidInputException("timeout", "timeout goes with waitFor=pending|running|finished");
            }
            // Answered on the event loop when the read completes: no worker thread waits for it.
            return Suspended.onRequestContext(jobs.jobs().getAsync(type, id),
                    job -> JobDto.of(job.orElseThrow(() -> new JobNotFoundException(type, id))));
        }
        JobState state = JobBodies.state("waitFor", waitFor);
        long maxMillis = config.maxWait().toMillis();
        int millis = QueryParams.integer("timeout", timeout, 0, (int) Math.min(maxMillis, Integer.MAX_VALUE),
                (int) config.defaultWaitTimeout().toMillis());
        return Suspended.map(jobs.jobs().waitFor(type, id, state, Duration.ofMillis(millis)), JobDto::of);
    }

    /** Server-Sent Events: the job's current state, then each change, then its removal (JobEventStream). */
    @Operation(operationId = "jobEvents", summary = "Follow a job's changes (Server-Sent Events)",
            description = "First an event 'state' with the job as it is, then one with each change (a burst may "
                    + "arrive as one event with the latest state); 'removed' with {\"type\",\"id\"} and the end of "
                    + "the stream when the job is deleted. Each event's id is the job's revision; comments keep a "
                    + "quiet stream alive.")
    @Tag(name = "Jobs")
    @APIResponse(responseCode = "200", description = "The event stream",
            content = @Content(mediaType = MediaType.SERVER_SENT_EVENTS, schema = @Schema(type = SchemaType.STRING),
                    examples = @ExampleObject(name = "stream", value = "id:7\nevent:state\ndata:{\"type\":\"email\","
                            + "\"id\":\"welcome-42\",\"state\":\"running\"}\n\n:keep-alive\n\nevent:removed\n"
                            + "data:{\"type\":\"email\",\"id\":\"welcome-42\"}\n\n")))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "JobNotFound")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.VIEWER_NAME)
    @GET
    @Path("{id}/events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    // Never cached, and never held back by a buffering proxy (nginx reads X-Accel-Buffering).
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @Blocking
    public Multi<OutboundSseEvent> events(@PathParam("type") String type, @PathParam("id") String id,
            @Context Sse sse) {
        return events.open(jobs.jobs(), type, id, sse);
    }

    /** {@code group=} (empty) lists the default group; leaving {@code group} out lists every group. */
    @Operation(operationId = "listJobs", summary = "List the jobs of a type",
            description = "In id order, or with order=recent its finished jobs, the latest finished first; one page "
                    + "at a time: pass the next of a page as cursor until it is null. A filtered page may hold fewer "
                    + "than limit jobs, even none, while next is not null.")
    @Tag(name = "Jobs")
    @Parameter(name = "order", in = ParameterIn.QUERY, ref = "ListOrder")
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
    public JobListDto list(@PathParam("type") String type, @QueryParam("state") String state,
            @QueryParam("result") String result, @QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @QueryParam("order") String order, @Context UriInfo uri) {
        ListQuery query = ListQuery.of(state, result, limit, uri, config);
        if (order == null || order.equals("id")) {
            return JobListDto.of(jobs.jobs().list(type, query.state(), query.result(), query.group(), query.limit(),
                    cursor));
        }
        if (!order.equals("recent")) {
            throw new InvalidInputException("order", "order is \"id\" (the default) or \"recent\" (finished jobs, the "
                    + "latest finished first), not " + Problems.printable(order));
        }
        if (query.state() != null && query.state() != JobState.FINISHED) {
            throw new InvalidInputException("state", "order=recent lists finished jobs: leave state out or make it "
                    + "finished");
        }
        return JobListDto.of(jobs.jobs().listRecent(type, query.result(), query.group(), query.limit(), cursor));
    }

    @Operation(operationId = "patchJob", summary = "Change a job's members",
            description = "priority, repeat and maxAttempts change in any state; data, scheduledAt and group only "
                    + "while the job is pending.")
    @Tag(name = "Jobs")
    @RequestBody(ref = "JobPatch")
    @APIResponse(responseCode = "200", description = "The job as it is now",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "JobNotFound")
    @APIResponse(responseCode = "409", ref = "Conflict")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.PRODUCER_NAME)
    @PATCH
    @Path("{id}")
    public JobDto patch(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        return JobDto.of(jobs.jobs().patch(type, id, JobBodies.patch(bodies.read(contentType, body))));
    }

    @Operation(operationId = "cancelJob", summary = "Cancel a job",
            description = "Pending: finished/cancelled at once. Running: its processor's next call gets 409 "
                    + "cancelled and the job ends cancelled, or pending if it was added or resubmitted after the "
                    + "cancel. Finished: unchanged.")
    @Tag(name = "Jobs")
    @RequestBody(ref = "Cancel")
    @APIResponse(responseCode = "200", description = "The job as it is now",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "JobNotFound")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.PRODUCER_NAME)
    @POST
    @Path("{id}/cancel")
    public JobDto cancel(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        bodies.read(contentType, body).allow();
        return JobDto.of(jobs.jobs().cancel(type, id));
    }

    @Operation(operationId = "resubmitJob", summary = "Run a job again",
            description = "couch_jobs resubmit. Pending: moved to scheduledAt. Running: flagged resubmit, runs again "
                    + "after it finishes. Finished: pending again. A processor passes its lease, and is told 409 halt "
                    + "when it is no longer the job's.")
    @Tag(name = "Jobs")
    @RequestBody(ref = "Resubmit")
    @APIResponse(responseCode = "200", description = "The job as it is now",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "JobNotFound")
    @APIResponse(responseCode = "409", ref = "Halt")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER)
    @RolesAllowed({Role.PRODUCER_NAME, Role.WORKER_NAME})
    @POST
    @Path("{id}/resubmit")
    public JobDto resubmit(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            @Context HttpServerRequest http, byte[] body) {
        CallKey key = IdempotencyKeys.of(http);
        JsonBody request = bodies.read(contentType, body).allow("scheduledAt", "lease");
        Instant at = request.time("scheduledAt").orElse(null);
        String lease = request.string("lease").orElse(null);
        // As for heartbeat and finish, an empty lease is a malformed request (400), not a lost lease (409).
        if (lease != null && lease.isEmpty()) {
            throw new InvalidInputException("lease",
                    "lease, when given, is the lease accept handed out; it is not empty");
        }
        // Without a lease a resubmit is a producer's call; with one, the worker's that holds the job.
        jobs.require(lease == null ? Role.PRODUCER_NAME : Role.WORKER_NAME);
        return JobDto.of(jobs.jobs().resubmit(type, id, at, lease, key));
    }

    @Operation(operationId = "removeJob", summary = "Remove every trace of a job",
            description = "A processor running it gets 409 removed on its next call.")
    @Tag(name = "Jobs")
    @RequestBody(ref = "Empty")
    @APIResponse(responseCode = "204", description = "The job was removed")
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "JobNotFound")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.PRODUCER_NAME)
    @DELETE
    @Path("{id}")
    public Response remove(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        // A body is not needed, but one sent is read as every call reads it: a malformed request
        // removes nothing.
        bodies.read(contentType, body).allow();
        jobs.jobs().remove(type, id);
        return Response.noContent().build();
    }

    @Operation(operationId = "heartbeat", summary = "Renew the lease, optionally report progress",
            description = "couch_jobs update: renews the activity timeout; data (if given) replaces the job's data. "
                    + "resubmit in the answer tells the processor the job will run again. A missing job is a halt "
                    + "(removed), never 404.")
    @Tag(name = "Processing")
    @RequestBody(ref = "Heartbeat")
    @APIResponse(responseCode = "200", description = "The job as it is now",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "409", ref = "Halt")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.WORKER_NAME)
    @POST
    @Path("{id}/heartbeat")
    public CompletionStage<JobDto> heartbeat(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        JsonBody request = bodies.read(contentType, body).allow("lease", "data");
        return Suspended.onRequestContext(
                jobs.jobs().heartbeatAsync(type, id, request.requiredString("lease"), request.jsonObject("data")), JobDto::of);
    }

    @Operation(operationId = "finishJob", summary = "Finish a run",
            description = "succeeded: finished/succeeded, unless resubmit or repeat puts it back to pending (with the "
                    + "data given here). failed: pending again after the backoff while attempts remain, else "
                    + "finished/failed (a repeating job moves on to its next run). Repeating the same finish (same "
                    + "lease and outcome) answers the job again; the other outcome with that lease is a 409 halt.")
    @Tag(name = "Processing")
    @RequestBody(ref = "Finish")
    @APIResponse(responseCode = "200", description = "The job as it is now",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JobDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "409", ref = "Halt")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.WORKER_NAME)
    @POST
    @Path("{id}/finish")
    public CompletionStage<JobDto> finish(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        JsonBody request = bodies.read(contentType, body).allow("lease", "outcome", "data", "error");
        String lease = request.requiredString("lease");
        boolean succeeded = JobBodies.succeeded(request);
        Change<String> data = request.jsonObject("data");
        String error = request.nullableString("error").orElse(null);
        return Suspended.onRequestContext(jobs.jobs().finishAsync(type, id, lease, succeeded, data, error), JobDto::of);
    }

    private static Response created(UriInfo uri, Added added) {
        return Response.created(Locations.job(uri.getBaseUri(), added.job().type(), added.job().id()))
                .entity(JobDto.of(added.job())).build();
    }
}
