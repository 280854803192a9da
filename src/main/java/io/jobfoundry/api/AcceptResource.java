package io.jobfoundry.api;

import io.jobfoundry.jobs.AcceptRequest;
import io.jobfoundry.jobs.JobWaits;
import io.jobfoundry.jobs.LeasedJob;
import io.smallrye.common.annotation.Blocking;
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

/** A processor takes due jobs, each under a lease. */
@Path("/v1/accept")
@Produces(MediaType.APPLICATION_JSON)
public class AcceptResource {

    private final JobWaits waits;
    private final RequestBodies bodies;
    private final ApiConfig config;

    AcceptResource(JobWaits waits, RequestBodies bodies, ApiConfig config) {
        this.waits = waits;
        this.bodies = bodies;
        this.config = config;
    }

    /**
     * Up to {@code max} due jobs; with {@code wait} (milliseconds) the answer waits, holding no
     * thread, until a job is due or the wait ends. A worker that hangs up while waiting is not
     * handed a job.
     */
    @POST
    @Blocking
    public CompletionStage<Response> accept(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        JsonBody request = bodies.read(contentType, body).allow("types", "max", "wait", "maxScheduledAt", "worker");
        AcceptRequest accept = new AcceptRequest(
                request.strings("types").orElseThrow(() -> new InvalidInputException("types", "types is required")),
                request.integer("max", 1, AcceptRequest.MAX_JOBS).orElse(1),
                request.timeOrNull("maxScheduledAt").orElse(null),
                request.nullableString("worker").orElse(null));
        Duration wait = request.millis("wait", config.maxWait()).orElse(Duration.ZERO);
        return Suspended.map(waits.accept(accept, wait), AcceptResource::answer);
    }

    private static Response answer(List<LeasedJob> jobs) {
        return jobs.isEmpty() ? Response.noContent().build()
                : Response.ok(jobs.stream().map(LeasedJobDto::of).toList()).build();
    }
}
