package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** {@code POST /v1/repeat/preview}: the normalized expression and the next run times. */
@RegisterForReflection
@JsonPropertyOrder({"normalized", "next"})
public record RepeatPreviewDto(String normalized, List<String> next) {
}
