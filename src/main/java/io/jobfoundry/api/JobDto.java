package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.util.RawValue;
import io.jobfoundry.jobs.Job;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The job object of API.md. {@code data} is the JSON text the engine stores, written as it is.
 * Every member is always present, {@code null} where unset.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"type", "id", "state", "result", "data", "group", "priority", "scheduledAt", "createdAt",
    "updatedAt", "startedAt", "finishedAt", "repeat", "attempt", "maxAttempts", "lastError", "resubmit", "worker"})
public record JobDto(
        String type,
        String id,
        String state,
        String result,
        RawValue data,
        String group,
        String priority,
        String scheduledAt,
        String createdAt,
        String updatedAt,
        String startedAt,
        String finishedAt,
        String repeat,
        int attempt,
        int maxAttempts,
        String lastError,
        boolean resubmit,
        String worker) {

    static JobDto of(Job job) {
        return new JobDto(job.type(), job.id(), job.state().wireName(),
                job.result() == null ? null : job.result().wireName(),
                job.data() == null ? null : new RawValue(job.data()), job.group(),
                job.priority().wireName(), WireTimes.format(job.scheduledAt()), WireTimes.format(job.createdAt()),
                WireTimes.format(job.updatedAt()), WireTimes.format(job.startedAt()),
                WireTimes.format(job.finishedAt()), job.repeat(), job.attempt(), job.maxAttempts(), job.lastError(),
                job.resubmit(), job.worker());
    }
}
