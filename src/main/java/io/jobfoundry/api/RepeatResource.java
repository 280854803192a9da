package io.jobfoundry.api;

import io.jobfoundry.repeat.Repeat;
import io.jobfoundry.repeat.RepeatPreview;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;

/** Trying out a repeat expression before giving it to a job. */
@Path("/v1/repeat")
@Produces(MediaType.APPLICATION_JSON)
public class RepeatResource {

    private final Clock clock;
    private final RequestBodies bodies;

    RepeatResource(Clock clock, RequestBodies bodies) {
        this.clock = clock;
        this.bodies = bodies;
    }

    @POST
    @Path("preview")
    public RepeatPreviewDto preview(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        JsonBody request = bodies.read(contentType, body)
                .allow("repeat", "scheduledAt", "startedAt", "finishedAt", "count");
        Repeat repeat = Repeat.parse(request.requiredString("repeat"));
        Instant now = clock.instant();
        var next = RepeatPreview.upcoming(repeat, request.time("scheduledAt").orElse(now),
                request.time("startedAt").orElse(now), request.time("finishedAt").orElse(now),
                request.integer("count", 1, RepeatPreview.MAX_COUNT).orElse(1));
        return new RepeatPreviewDto(repeat.normalized(), next.stream().map(WireTimes::format).toList());
    }
}
