package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.jobfoundry.jobs.LeasedJob;
import io.quarkus.runtime.annotations.RegisterForReflection;

/** A job handed out by accept: the job object with its {@code lease} as one more member. */
@RegisterForReflection
public record LeasedJobDto(@JsonUnwrapped JobDto job, String lease) {

    static LeasedJobDto of(LeasedJob leased) {
        return new LeasedJobDto(JobDto.of(leased.job()), leased.lease());
    }
}
