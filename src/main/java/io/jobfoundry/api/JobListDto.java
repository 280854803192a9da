package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.jobfoundry.jobs.JobPage;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** A page of {@code GET /v1/jobs/{type}}: {@code next} is the cursor of the following page, or null. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"jobs", "next"})
public record JobListDto(List<JobDto> jobs, String next) {

    static JobListDto of(JobPage page) {
        return new JobListDto(page.jobs().stream().map(JobDto::of).toList(), page.next());
    }
}
