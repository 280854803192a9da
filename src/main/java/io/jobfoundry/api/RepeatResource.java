package io.jobfoundry.api;

import io.jobfoundry.auth.Role;
import io.jobfoundry.repeat.Repeat;
import io.jobfoundry.repeat.RepeatParser;
import io.jobfoundry.repeat.RepeatPreview;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

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

    @Operation(operationId = "previewRepeat", summary = "The next run times of a repeat expression",
            description = "Each further time is computed as if the previous run had been scheduled, started and "
                    + "finished at its time. A bad expression is 400 with a detail naming the offending part.")
    @Tag(name = "Repeat")
    @RequestBody(ref = "RepeatPreview")
    @APIResponse(responseCode = "200", description = "The normalized expression and the next run times",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = RepeatPreviewDto.class)))
    @APIResponse(responseCode = "400", ref = "InvalidRequest")
    @APIResponse(responseCode = "413", ref = "TooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @RolesAllowed(Role.VIEWER_NAME)
    @POST
    @Path("preview")
    public RepeatPreviewDto preview(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, byte[] body) {
        JsonBody request = bodies.read(contentType, body)
                .allow("repeat", "scheduledAt", "startedAt", "finishedAt", "count");
        Repeat repeat = RepeatParser.parse(request.requiredString("repeat")).requireProgress();
        Instant now = clock.instant();
        var next = RepeatPreview.upcoming(repeat, request.time("scheduledAt").orElse(now),
                request.time("startedAt").orElse(now), request.time("finishedAt").orElse(now),
                request.integer("count", 1, RepeatPreview.MAX_COUNT).orElse(1));
        return new RepeatPreviewDto(repeat.normalized(), next.stream().map(WireTimes::format).toList());
    }
}
