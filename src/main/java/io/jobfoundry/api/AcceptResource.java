package io.jobfoundry.api;

import io.jobfoundry.jobs.AcceptRequest;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.LeasedJob;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/** A processor takes due jobs, each under a lease. */
@Path("/v1/accept")
@Produces(MediaType.APPLICATION_JSON)
public class AcceptResource {

    private final JobEngine engine;
    private final RequestBodies bodies;

    AcceptResource(JobEngine engine, RequestBodies bodies) {
        this.engine = engine;
        this.bodies = bodies;
    }

    @POST
    public Response accept(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        JsonBody request = bodies.read(contentType, body).allow("types", "max", "wait", "maxScheduledAt", "worker");
        AcceptRequest accept = new AcceptRequest(
                request.strings("types").orElseThrow(() -> new InvalidInputException("types", "types is required")),
                request.integer("max", 1, AcceptRequest.MAX_JOBS).orElse(1),
                request.timeOrNull("maxScheduledAt").orElse(null),
                request.nullableString("worker").orElse(null));
        List<LeasedJob> jobs = engine.accept(accept);
        return answer(jobs);
    }

    private static Response answer(List<LeasedJob> jobs) {
        return jobs.isEmpty() ? Response.noContent().build()
                : Response.ok(jobs.stream().map(LeasedJobDto::of).toList()).build();
    }
}
