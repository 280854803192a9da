package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.util.RawValue;
import io.jobfoundry.jobs.model.Job;
import java.util.List;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The job object of API.md. {@code data} is the JSON text the engine stores, written as it is.
 * Every member is always present, {@code null} where unset.
 */
@RegisterForReflection
@Schema(name = "Job", description = "A job. Every member is always present, null where unset; times are RFC 3339 UTC.",
        requiredProperties = {"type", "id", "state", "result", "data", "group", "priority", "scheduledAt", "createdAt",
            "updatedAt", "startedAt", "finishedAt", "repeat", "attempt", "maxAttempts", "lastError", "resubmit",
            "worker", "after", "afterFailure", "waitingFor", "history"})
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"type", "id", "state", "result", "data", "group", "priority", "scheduledAt", "createdAt",
    "updatedAt", "startedAt", "finishedAt", "repeat", "attempt", "maxAttempts", "lastError", "resubmit", "worker",
    "after", "afterFailure", "waitingFor", "history"})
public record JobDto(
        @Schema(pattern = "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", examples = "email") String type,
        @Schema(minLength = 1, maxLength = 256, examples = "welcome-42") String id,
        @Schema(enumeration = {"pending", "running", "finished"},
                description = "pending includes jobs scheduled later and failed attempts waiting for their retry")
        String state,
        @Schema(type = SchemaType.STRING, nullable = true, enumeration = {"succeeded", "failed", "cancelled"},
                description = "set when the job is finished") String result,
        @Schema(ref = "JobData") RawValue data,
        @Schema(description = "the fairness group; \"\" is the default", examples = "tenant-7")
        String group,
        @Schema(enumeration = {"high", "low"}) String priority,
        @Schema(format = "date-time", description = "when the pending job is (or was) due")
        String scheduledAt,
        @Schema(format = "date-time") String createdAt,
        @Schema(format = "date-time") String updatedAt,
        @Schema(type = SchemaType.STRING, nullable = true, format = "date-time", description = "the last start")
        String startedAt,
        @Schema(type = SchemaType.STRING, nullable = true, format = "date-time") String finishedAt,
        @Schema(type = SchemaType.STRING, nullable = true, examples = "FINISHED, +1 HOUR") String repeat,
        @Schema(description = "failed or timed-out attempts of the current run") int attempt,
        int maxAttempts,
        @Schema(type = SchemaType.STRING, nullable = true) String lastError,
        @Schema(description = "the job runs again when its processor finishes") boolean resubmit,
        @Schema(type = SchemaType.STRING, nullable = true, description = "the worker label of the last accept")
        String worker,
        @Schema(description = "the jobs this one waits for: it is not due until each has finished succeeded")
        List<JobRefDto> after,
        @Schema(enumeration = {"cancel", "run"},
                description = "if one of after fails, is cancelled or removed: finish cancelled, or run anyway")
        String afterFailure,
        @Schema(description = "those of after not yet done; [] once the job no longer waits")
        List<JobRefDto> waitingFor,
        @Schema(description = "the most recent attempts across the job's runs, oldest first (at most 20)")
        List<AttemptDto> history) {

    static JobDto of(Job job) {
        return new JobDto(job.type(), job.id(), job.state().wireName(),
                job.result() == null ? null : job.result().wireName(),
                job.data() == null ? null : new RawValue(job.data()), job.group(),
                job.priority().wireName(), WireTimes.format(job.scheduledAt()), WireTimes.format(job.createdAt()),
                WireTimes.format(job.updatedAt()), WireTimes.format(job.startedAt()),
                WireTimes.format(job.finishedAt()), job.repeat(), job.attempt(), job.maxAttempts(), job.lastError(),
                job.resubmit(), job.worker(), JobRefDto.of(job.after()), job.afterFailure().wireName(),
                JobRefDto.of(job.waitingFor()),
                AttemptDto.of(job.history()));
    }
}
