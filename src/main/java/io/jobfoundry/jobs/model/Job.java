package io.jobfoundry.jobs.model;

import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;

/**
 * A job as clients see it (API.md's job object). {@code revision} grows with every change of the
 * job and orders the events of its subscription. {@code history}: its most recent attempts, oldest first. {@code after}: the
 * jobs it waits for (Dependencies); {@code waitingFor}: those of them not yet done;
 * {@code blockedBy}: the one whose failure or removal cancelled it (named in its {@code lastError}), or null.
 */
public record Job(
        String type,
        String id,
        JobState state,
        JobResult result,
        String data,
        String group,
        Priority priority,
        Instant scheduledAt,
        Instant createdAt,
        Instant updatedAt,
        Instant startedAt,
        Instant finishedAt,
        String repeat,
        int attempt,
        int maxAttempts,
        String lastError,
        boolean resubmit,
        String worker,
        long revision,
        List<Attempt> history,
        List<JobRef> after,
        AfterFailure afterFailure,
        List<JobRef> waitingFor,
        JobRef blockedBy) {

    /**
     * The job with its dependencies narrowed to what {@code visible} lets a caller see: entries of
     * other types are left out ({@code ScopedJobs}), and a {@code lastError} that names one
     * ({@link #blockedBy}) says only that a dependency did not succeed.
     */
    public Job narrowed(Predicate<String> visible) {
        String error = blockedBy != null && !visible.test(blockedBy.type())
                ? "a job it waited for (of a type this token may not see) did not succeed" : lastError;
        return new Job(type, id, state, result, data, group, priority, scheduledAt, createdAt, updatedAt, startedAt,
                finishedAt, repeat, attempt, maxAttempts, error, resubmit, worker, revision, history,
                after.stream().filter(ref -> visible.test(ref.type())).toList(), afterFailure,
                waitingFor.stream().filter(ref -> visible.test(ref.type())).toList(), blockedBy);
    }
}
