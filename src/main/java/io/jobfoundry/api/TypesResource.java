package io.jobfoundry.api;

import io.jobfoundry.auth.Role;
import io.jobfoundry.jobs.model.PushTarget;
import io.jobfoundry.jobs.model.Retention;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.push.PushTargets;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Types: their configuration and counts. */
@Path("/v1/types")
@Produces(MediaType.APPLICATION_JSON)
public class TypesResource {

    private final CallerJobs jobs;
    private final RequestBodies bodies;
    private final PushTargets pushTargets;
    private final ApiConfig config;

    TypesResource(CallerJobs jobs, RequestBodies bodies, PushTargets pushTargets, ApiConfig config) {
        this.jobs = jobs;
        this.bodies = bodies;
        this.pushTargets = pushTargets;
        this.config = config;
    }

    @Operation(operationId = "listTypes", summary = "Every type, with its settings and counts, in name order")
    @Tag(name = "Types")
    @APIResponse(responseCode = "200", description = "The types",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = TypeListDto.class)))
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.VIEWER_NAME)
    @GET
    public TypeListDto all() {
        return new TypeListDto(jobs.jobs().types().stream().map(TypeDto::of).toList());
    }

    @Operation(operationId = "getType", summary = "A type's settings and counts")
    @Tag(name = "Types")
    @APIResponse(responseCode = "200", description = "The type",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = TypeDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "TypeNotFound")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.VIEWER_NAME)
    @GET
    @Path("{type}")
    public TypeDto get(@PathParam("type") String type) {
        return TypeDto.of(jobs.jobs().type(type).orElseThrow(() -> new TypeNotFoundException(type)));
    }

    /** Members left out keep the type's current value (the defaults for a type not yet used). */
    @Operation(operationId = "configureType", summary = "Configure a type",
            description = "Members left out keep their current value (the defaults for a new type); read and written "
                    + "in one transaction. A changed maxAttempts applies to jobs added afterwards.")
    @Tag(name = "Types")
    @RequestBody(ref = "TypeSettings")
    @APIResponse(responseCode = "200", description = "The type as it is now",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = TypeDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.ADMIN_NAME)
    @PUT
    @Path("{type}")
    public TypeDto configure(@PathParam("type") String type, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            byte[] body) {
        JsonBody request = bodies.read(contentType, body)
                .allow("activityTimeout", "maxAttempts", "priorityScheme", "backoff", "retention", "push",
                        "concurrency", "rateLimit");
        List<Integer> scheme = request.integers("priorityScheme", 0, 1000).orElse(null);
        if (scheme != null && scheme.size() != 2) {
            throw new InvalidInputException("priorityScheme", "priorityScheme is [high, low], e.g. [2, 1]");
        }
        JsonBody backoff = request.object("backoff").map(b -> b.allow("base", "max")).orElse(JsonBody.empty());
        // The engine's own ranges, checked here too so that a refusal states the range it applies.
        var activityTimeout = request.seconds("activityTimeout", TypeSettings.SHORTEST_ACTIVITY_TIMEOUT,
                TypeSettings.LONGEST);
        var maxAttempts = request.integer("maxAttempts", 1, TypeSettings.MAX_ATTEMPTS_LIMIT);
        var base = backoff.seconds("base", Duration.ZERO, TypeSettings.LONGEST);
        var max = backoff.seconds("max", Duration.ZERO, TypeSettings.LONGEST);
        JsonBody retention = request.object("retention").map(r -> r.allow("succeeded", "failed", "cancelled"))
                .orElse(JsonBody.empty());
        var succeeded = retention.secondsOrNull("succeeded", Duration.ZERO, Retention.LONGEST);
        var failed = retention.secondsOrNull("failed", Duration.ZERO, Retention.LONGEST);
        var cancelled = retention.secondsOrNull("cancelled", Duration.ZERO, Retention.LONGEST);
        UnaryOperator<TypeSettings> push = pushChange(request);
        UnaryOperator<TypeSettings> limits = LimitsBody.change(request);
        // Read and write in one transaction: concurrent partial PUTs cannot undo each other.
        return TypeDto.of(jobs.jobs().configureType(type, current -> limits.apply(push.apply(new TypeSettings(
                activityTimeout.orElse(current.activityTimeout()),
                maxAttempts.orElse(current.maxAttempts()),
                scheme == null ? current.highRun() : scheme.get(0),
                scheme == null ? current.lowRun() : scheme.get(1),
                base.orElse(current.backoffBase()),
                max.orElse(current.backoffMax()),
                new Retention(succeeded.orElse(current.retention().succeeded()),
                        failed.orElse(current.retention().failed()),
                        cancelled.orElse(current.retention().cancelled())),
                current.push(), current.concurrency(), current.rateLimit())))));
    }

    /**
     * The request's {@code push}: {@code null} turns it off; an object's members left out keep the
     * current target's (a new target's timeout is 30 s, or the activity timeout if shorter). The
     * url is checked against the allow-list here, before the transaction.
     */
    private UnaryOperator<TypeSettings> pushChange(JsonBody request) {
        if (request.isNull("push")) {
            return settings -> settings.withPush(null);
        }
        JsonBody push = request.object("push").map(p -> p.allow("url", "timeout", "concurrency")).orElse(null);
        if (push == null) {
            return UnaryOperator.identity();
        }
        var url = push.string("url");
        var timeout = push.seconds("timeout", PushTarget.SHORTEST_TIMEOUT, TypeSettings.LONGEST);
        var concurrency = push.integer("concurrency", 1, PushTarget.MAX_CONCURRENCY);
        url.ifPresent(this::checkAllowed);
        return settings -> {
            PushTarget current = settings.push();
            if (current == null && url.isEmpty()) {
                throw new InvalidInputException("push.url", "push.url is required to turn push delivery on");
            }
            Duration defaultTimeout = current != null ? current.timeout()
                    : PushTarget.DEFAULT_TIMEOUT.compareTo(settings.activityTimeout()) <= 0
                            ? PushTarget.DEFAULT_TIMEOUT : settings.activityTimeout();
            return settings.withPush(new PushTarget(url.orElseGet(() -> current.url()), timeout.orElse(defaultTimeout),
                    concurrency.orElse(current != null ? current.concurrency() : PushTarget.DEFAULT_CONCURRENCY)));
        };
    }

    private void checkAllowed(String url) {
        if (!pushTargets.allows(url)) {
            throw new InvalidInputException("push.url", pushTargets.refusal());
        }
    }

    @Operation(operationId = "deleteType", summary = "Delete a type no job uses",
            description = "Its settings, pause, counters and groups go, in one transaction; its next job registers "
                    + "it again with the defaults. Refused while any job of the type exists, finished ones kept by "
                    + "retention included: remove them first (POST /v1/bulk with action remove).")
    @Tag(name = "Types")
    @RequestBody(ref = "Empty")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "TypeNotFound")
    @APIResponse(responseCode = "409", ref = "TypeInUse")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.ADMIN_NAME)
    @DELETE
    @Path("{type}")
    public Response delete(@PathParam("type") String type, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            byte[] body) {
        bodies.read(contentType, body).allow();
        if (!jobs.jobs().deleteType(type)) {
            throw new TypeNotFoundException(type);
        }
        return Response.noContent().build();
    }

    @Operation(operationId = "listGroups", summary = "A type's fairness groups with their counts",
            description = "Groups with pending or running jobs, in name order, one page at a time: pass the next "
                    + "of a page as cursor until it is null. Counts come from counters kept with every move, "
                    + "never from a scan of the jobs.")
    @Tag(name = "Types")
    @Parameter(name = "limit", in = ParameterIn.QUERY, description = "the most groups on a page",
            schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "1000", defaultValue = "100"))
    @Parameter(name = "cursor", in = ParameterIn.QUERY, description = "the next of the previous page (opaque)",
            schema = @Schema(type = SchemaType.STRING))
    @APIResponse(responseCode = "200", description = "A page of groups",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = GroupListDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "404", ref = "TypeNotFound")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.VIEWER_NAME)
    @GET
    @Path("{type}/groups")
    public GroupListDto groups(@PathParam("type") String type, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        int size = QueryParams.integer("limit", limit, 1, 1000, config.defaultPageSize());
        return GroupListDto.of(jobs.jobs().groups(type, size, cursor).orElseThrow(() -> new TypeNotFoundException(type)));
    }

    @Operation(operationId = "pauseType", summary = "Pause a type: accepts hand out none of its jobs",
            description = "On every replica, at once. Blocked accepts keep waiting; creating, heartbeats, finishes "
                    + "and the activity monitor go on. A type not yet used is registered, paused.")
    @Tag(name = "Types")
    @RequestBody(ref = "Empty")
    @APIResponse(responseCode = "200", description = "The type as it is now",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = TypeDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.ADMIN_NAME)
    @POST
    @Path("{type}/pause")
    public TypeDto pause(@PathParam("type") String type,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        bodies.read(contentType, body).allow();
        return TypeDto.of(jobs.jobs().pause(type, true));
    }

    @Operation(operationId = "resumeType", summary = "Resume a paused type",
            description = "Accepts waiting for the type, on every replica, are handed its due jobs at once.")
    @Tag(name = "Types")
    @RequestBody(ref = "Empty")
    @APIResponse(responseCode = "200", description = "The type as it is now",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = TypeDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.ADMIN_NAME)
    @POST
    @Path("{type}/resume")
    public TypeDto resume(@PathParam("type") String type,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        bodies.read(contentType, body).allow();
        return TypeDto.of(jobs.jobs().pause(type, false));
    }
}
