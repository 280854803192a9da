package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.jobfoundry.jobs.model.LeasedJob;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A job handed out by accept: the job object with its {@code lease} as one more member. */
@RegisterForReflection
@Schema(name = "LeasedJob", description = "A job handed out by accept: the job object and its lease.",
        allOf = JobDto.class, requiredProperties = "lease") // allOf: every member of Job is required here too
public record LeasedJobDto(@JsonUnwrapped JobDto job,
        @Schema(description = "pass it with every call on the job", examples = "3q2-7Vb0TgqRkQJ8Yh1xzA")
        String lease) {

    static LeasedJobDto of(LeasedJob leased) {
        return new LeasedJobDto(JobDto.of(leased.job()), leased.lease());
    }
}
