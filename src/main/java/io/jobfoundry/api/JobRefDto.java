package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.jobfoundry.jobs.model.JobRef;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A job named by another's {@code after} or {@code waitingFor}, as the wire shows it. */
@RegisterForReflection
@JsonPropertyOrder({"type", "id"})
@Schema(name = "JobRef", requiredProperties = {"type", "id"})
public record JobRefDto(@Schema(examples = "email") String type, @Schema(examples = "welcome-42") String id) {

    static List<JobRefDto> of(List<JobRef> refs) {
        if (refs.isEmpty()) {
            return List.of(); // most jobs: no stream built for nothing on every GET
        }
        return refs.stream().map(ref -> new JobRefDto(ref.type(), ref.id())).toList();
    }
}
