package io.jobfoundry.api;

import io.jobfoundry.jobs.Added;
import io.jobfoundry.jobs.Change;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.JobNotFoundException;
import io.jobfoundry.jobs.JobState;
import io.jobfoundry.jobs.JobWaits;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Creating, reading and managing jobs, and the processor's calls on one job (API.md). */
@Path("/v1/jobs/{type}")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    private final JobEngine engine;
    private final JobWaits waits;
    private final JobEventStream events;
    private final RequestBodies bodies;
    private final ApiConfig config;

    JobsResource(JobEngine engine, JobWaits waits, JobEventStream events, RequestBodies bodies, ApiConfig config) {
        this.engine = engine;
        this.waits = waits;
        this.events = events;
        this.bodies = bodies;
        this.config = config;
    }

    @POST
    public Response create(@PathParam("type") String type, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            @Context UriInfo uri, byte[] body) {
        Added added = engine.create(type, JobBodies.changes(bodies.read(contentType, body)));
        return created(uri, added);
    }

    @PUT
    @Path("{id}")
    public Response put(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, @Context UriInfo uri, byte[] body) {
        Added added = engine.put(type, id, JobBodies.changes(bodies.read(contentType, body)));
        return added.created() ? created(uri, added) : Response.ok(JobDto.of(added.job())).build();
    }

    /**
     * The job; with {@code waitFor} the answer waits (no thread held) until the job is in that state
     * or {@code timeout} milliseconds have passed, and then is the job as it is (couch_jobs' wait).
     */
    @GET
    @Path("{id}")
    @Blocking
    public CompletionStage<JobDto> get(@PathParam("type") String type, @PathParam("id") String id,
            @QueryParam("waitFor") String waitFor, @QueryParam("timeout") String timeout) {
        if (waitFor == null) {
            if (timeout != null) {
                throw new InvalidInputException("timeout", "timeout goes with waitFor=pending|running|finished");
            }
            return CompletableFuture.completedFuture(
                    JobDto.of(engine.get(type, id).orElseThrow(() -> new JobNotFoundException(type, id))));
        }
        JobState state = JobBodies.state("waitFor", waitFor);
        long maxMillis = config.maxWait().toMillis();
        int millis = QueryParams.integer("timeout", timeout, 0, (int) Math.min(maxMillis, Integer.MAX_VALUE),
                (int) config.defaultWaitTimeout().toMillis());
        return Suspended.map(waits.waitFor(type, id, state, Duration.ofMillis(millis)), JobDto::of);
    }

    /** Server-Sent Events: the job's current state, then each change, then its removal (JobEventStream). */
    @GET
    @Path("{id}/events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Blocking
    public Multi<OutboundSseEvent> events(@PathParam("type") String type, @PathParam("id") String id,
            @Context Sse sse) {
        return events.open(type, id, sse);
    }

    /** {@code group=} (empty) lists the default group; leaving {@code group} out lists every group. */
    @GET
    public JobListDto list(@PathParam("type") String type, @QueryParam("state") String state,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor, @Context UriInfo uri) {
        // Read from UriInfo: @QueryParam turns "group=" into null, which would mean "any group".
        String group = uri.getQueryParameters().containsKey("group")
                ? uri.getQueryParameters().getFirst("group") : null;
        JobState filter = state == null ? null : JobBodies.state("state", state);
        int size = QueryParams.integer("limit", limit, 1, 1000, config.defaultPageSize());
        return JobListDto.of(engine.list(type, filter, group, size, cursor));
    }

    @PATCH
    @Path("{id}")
    public JobDto patch(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        return JobDto.of(engine.patch(type, id, JobBodies.changes(bodies.read(contentType, body))));
    }

    @POST
    @Path("{id}/cancel")
    public JobDto cancel(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        bodies.read(contentType, body).allow();
        return JobDto.of(engine.cancel(type, id));
    }

    @POST
    @Path("{id}/resubmit")
    public JobDto resubmit(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        JsonBody request = bodies.read(contentType, body).allow("scheduledAt", "lease");
        Instant at = request.time("scheduledAt").orElse(null);
        return JobDto.of(engine.resubmit(type, id, at, request.string("lease").orElse(null)));
    }

    @DELETE
    @Path("{id}")
    public Response remove(@PathParam("type") String type, @PathParam("id") String id) {
        engine.remove(type, id);
        return Response.noContent().build();
    }

    @POST
    @Path("{id}/heartbeat")
    public JobDto heartbeat(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        JsonBody request = bodies.read(contentType, body).allow("lease", "data");
        return JobDto.of(engine.heartbeat(type, id, request.requiredString("lease"), request.jsonObject("data")));
    }

    @POST
    @Path("{id}/finish")
    public JobDto finish(@PathParam("type") String type, @PathParam("id") String id,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        JsonBody request = bodies.read(contentType, body).allow("lease", "outcome", "data", "error");
        String lease = request.requiredString("lease");
        boolean succeeded = JobBodies.succeeded(request.requiredString("outcome"));
        Change<String> data = request.jsonObject("data");
        String error = request.nullableString("error").orElse(null);
        return JobDto.of(engine.finish(type, id, lease, succeeded, data, error));
    }

    private static Response created(UriInfo uri, Added added) {
        return Response.created(Locations.job(uri.getBaseUri(), added.job().type(), added.job().id()))
                .entity(JobDto.of(added.job())).build();
    }
}
