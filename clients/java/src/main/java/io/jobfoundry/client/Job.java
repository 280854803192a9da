package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * A job as the service shows it. Times are UTC instants; absent ones are {@code null}.
 *
 * @param type the kind of work
 * @param id the job's id within its type
 * @param state pending, running or finished
 * @param result how a finished job ended; {@code null} unless finished
 * @param data the job's JSON data, or {@code null} when it has none
 * @param group the fairness group ({@code ""} is the default)
 * @param priority high or low
 * @param scheduledAt when the pending job is (or was) due
 * @param createdAt when it was created
 * @param updatedAt when it last changed
 * @param startedAt the last start, or {@code null}
 * @param finishedAt the last finish, or {@code null}
 * @param repeat its repeat expression, or {@code null}
 * @param attempt failed or timed-out attempts of the current run
 * @param maxAttempts attempts a run may take
 * @param lastError the last failed attempt's error, or {@code null}
 * @param resubmit whether the job runs again when its processor finishes
 * @param worker the label of the processor of the current run, or {@code null}
 * @param after the jobs this one waits for, as given when it was added (empty if none)
 * @param afterFailure what the job does if one of {@code after} does not succeed ({@code CANCEL} from a service
 *     that does not say)
 * @param waitingFor those of {@code after} not yet done: while it is not empty the pending job is not due
 * @param json the job object exactly as received, including members this version does not model
 */
public record Job(String type, String id, JobState state, JobResult result, JsonNode data, String group,
        Priority priority, Instant scheduledAt, Instant createdAt, Instant updatedAt, Instant startedAt,
        Instant finishedAt, String repeat, int attempt, int maxAttempts, String lastError, boolean resubmit,
        String worker, List<JobRef> after, AfterFailure afterFailure, List<JobRef> waitingFor, JsonNode json) {

    /** @return a reference to this job, e.g. for another job's {@link JobSpec#after(JobRef...)} */
    public JobRef ref() {
        return new JobRef(type, id);
    }

    /**
     * The data converted to a Java type with Jackson.
     *
     * @param <T> the type
     * @param type the class to bind to
     * @return the data as {@code type}, or {@code null} when the job has none
     */
    public <T> T dataAs(Class<T> type) {
        return data == null ? null : Json.convert(data, type);
    }
}
