package bench.bare;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The service's paths for a job, written as plain Quarkus REST does by default (a resource method
 * returning a value, Jackson for the JSON), over a map in memory: what a request costs with no
 * store, no filters and no metrics.
 */
@Path("/v1/jobs/{type}")
public class JobsResource {

    private final Map<String, Job> jobs = new ConcurrentHashMap<>();

    /** The body: {@code data} as the client sent it, like the service's create. */
    public record Changes(Object data) {
    }

    @POST
    public Response create(@PathParam("type") String type, Changes changes, @Context UriInfo uri) {
        String id = UUID.randomUUID().toString();
        String now = Instant.now().toString();
        Job job = new Job(type, id, "pending", null, changes == null ? null : changes.data(), "", "high", now, now, now,
                null, null, null, 0, 3, null, false, null);
        jobs.put(type + "/" + id, job);
        return Response.created(uri.getAbsolutePathBuilder().path(id).build()).entity(job).build();
    }

    @GET
    @Path("{id}")
    public Job get(@PathParam("type") String type, @PathParam("id") String id) {
        Job job = jobs.get(type + "/" + id);
        if (job == null) {
            throw new NotFoundException();
        }
        return job;
    }
}
