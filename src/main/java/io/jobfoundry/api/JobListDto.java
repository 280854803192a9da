package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.jobfoundry.jobs.model.JobPage;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A page of {@code GET /v1/jobs/{type}}: {@code next} is the cursor of the following page, or null. */
@RegisterForReflection
@Schema(name = "JobList", description = "A page of jobs in id order.", requiredProperties = {"jobs", "next"})
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"jobs", "next"})
public record JobListDto(List<JobDto> jobs,
        @Schema(type = SchemaType.STRING, nullable = true,
                description = "the cursor of the next page; null on the last page") String next) {

    static JobListDto of(JobPage page) {
        return new JobListDto(page.jobs().stream().map(JobDto::of).toList(), page.next());
    }
}
