package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** {@code POST /v1/repeat/preview}: the normalized expression and the next run times. */
@RegisterForReflection
@Schema(name = "RepeatPreview", requiredProperties = {"normalized", "next"})
@JsonPropertyOrder({"normalized", "next"})
public record RepeatPreviewDto(
        @Schema(description = "the expression as the service reads it", examples = "FINISHED, +1 HOUR")
        String normalized,
        @Schema(description = "the next run times, RFC 3339 UTC; fewer than count past the year 9999")
        List<String> next) {
}
