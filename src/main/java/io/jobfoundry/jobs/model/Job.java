package io.jobfoundry.jobs.model;

import java.time.Instant;
import java.util.List;

/**
 * A job as clients see it (API.md's job object). {@code revision} grows with every change of the
 * job and orders the events of its subscription. {@code history}: its most recent attempts, oldest first.
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
        List<Attempt> history) {
}
