package io.jobfoundry.api;

import io.jobfoundry.auth.Role;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.LeasedJob;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A processor takes due jobs, each under a lease. */
@Path("/v1/accept")
@Produces(MediaType.APPLICATION_JSON)
public class AcceptResource {

    /** The shortest wait taken, other than 0: anything shorter is a unit mistaken, not a wait wanted. */
    static final int SHORTEST_WAIT_MILLIS = 100;

    private final CallerJobs jobs;
    private final RequestBodies bodies;
    private final ApiConfig config;

    AcceptResource(CallerJobs jobs, RequestBodies bodies, ApiConfig config) {
        this.jobs = jobs;
        this.bodies = bodies;
        this.config = config;
    }

    /**
     * Up to {@code max} due jobs; with {@code wait} (milliseconds) the answer waits, holding no
     * thread, until a job is due or the wait ends. A worker that hangs up while waiting is not
     * handed a job.
     */
    @Operation(operationId = "accept", summary = "Take due jobs, each under a lease",
            description = "Atomically takes up to max due jobs of the named types (globs allowed): round-robin across "
                    + "groups, the type's priority scheme within a group, oldest first. With wait the call blocks "
                    + "until a job is due or the wait ends; a job added meanwhile is handed over at once.")
    @Tag(name = "Processing")
    @RequestBody(ref = "Accept")
    @APIResponse(responseCode = "200", description = "The jobs taken, each with its lease",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(type = SchemaType.ARRAY, implementation = LeasedJobDto.class)))
    @APIResponse(responseCode = "204", description = "No job was due within the wait")
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "503", ref = "StoreUnavailable")
    @RolesAllowed(Role.WORKER_NAME)
    @POST
    public CompletionStage<Response> accept(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        JsonBody request = bodies.read(contentType, body).allow("types", "max", "wait", "maxScheduledAt", "worker");
        AcceptRequest accept = new AcceptRequest(
                request.strings("types").orElseThrow(() -> new InvalidInputException("types", "types is required")),
                request.integer("max", 1, AcceptRequest.MAX_JOBS).orElse(1),
                request.timeOrNull("maxScheduledAt").orElse(null),
                request.nullableString("worker").orElse(null));
        Duration wait = request.millis("wait", config.maxWait()).orElse(Duration.ZERO);
        if (!wait.isZero() && wait.toMillis() < SHORTEST_WAIT_MILLIS) {
            // activityTimeout is in seconds, wait in milliseconds: "wait": 30 is nearly always 30 s meant.
            throw new InvalidInputException("wait", "wait is in milliseconds: " + wait.toMillis() + " ms is shorter than "
                    + SHORTEST_WAIT_MILLIS + " ms, which is nearly always seconds meant; send " + wait.toMillis() * 1000
                    + " for " + wait.toMillis() + " s, or 0 to answer at once");
        }
        return Suspended.onRequestContext(jobs.jobs().accept(accept, wait), AcceptResource::answer);
    }

    private static Response answer(List<LeasedJob> jobs) {
        return jobs.isEmpty() ? Response.noContent().build()
                : Response.ok(jobs.stream().map(LeasedJobDto::of).toList()).build();
    }
}
