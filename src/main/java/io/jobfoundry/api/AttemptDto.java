package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.jobfoundry.jobs.model.Attempt;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One attempt in a job's {@code history}, as the wire shows it. */
@RegisterForReflection
@JsonPropertyOrder({"attempt", "startedAt", "endedAt", "outcome", "error", "worker"})
@Schema(name = "Attempt")
public record AttemptDto(
        @Schema(description = "the attempt's place in its run: 1 for the first") int attempt,
        @Schema(type = SchemaType.STRING, nullable = true, format = "date-time") String startedAt,
        @Schema(format = "date-time") String endedAt,
        @Schema(enumeration = {"succeeded", "failed", "timed-out", "cancelled"}) String outcome,
        @Schema(type = SchemaType.STRING, nullable = true, maxLength = 500,
                description = "the error it ended with, cut to 500 characters") String error,
        @Schema(type = SchemaType.STRING, nullable = true) String worker) {

    static List<AttemptDto> of(List<Attempt> history) {
        List<AttemptDto> attempts = new ArrayList<>(history.size());
        for (Attempt a : history) {
            attempts.add(new AttemptDto(a.attempt(), WireTimes.format(a.startedAt()), WireTimes.format(a.endedAt()),
                    a.outcome().wireName(), a.error(), a.worker()));
        }
        return attempts;
    }
}
