package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.jobfoundry.jobs.model.BulkResult;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The answer of {@code POST /v1/bulk}. */
@RegisterForReflection
@Schema(name = "BulkResult", requiredProperties = {"matched", "changed"})
@JsonPropertyOrder({"matched", "changed"})
public record BulkResultDto(
        @Schema(description = "jobs that matched the filter when their step looked at them") long matched,
        @Schema(description = "jobs the action changed (a finished job cancelled, or a pending one retried, is not)")
        long changed) {

    static BulkResultDto of(BulkResult result) {
        return new BulkResultDto(result.matched(), result.changed());
    }
}
