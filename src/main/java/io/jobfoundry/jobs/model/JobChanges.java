package io.jobfoundry.jobs.model;

import java.time.Instant;
import java.util.List;

/**
 * The members of an add (PUT/POST) or a PATCH. For a new job, members not given take the type's
 * defaults; for an existing job they stay as they are. {@code data} is JSON text (an object or
 * {@code null}), validated by the caller; {@code repeat} is a repeat expression. {@code after} and {@code afterFailure}
 * are a create's or PUT's dependencies (Dependencies in API.md).
 */
public record JobChanges(
        Change<String> data,
        Change<Instant> scheduledAt,
        Change<Priority> priority,
        Change<String> group,
        Change<String> repeat,
        Change<Integer> maxAttempts,
        Change<List<JobRef>> after,
        Change<AfterFailure> afterFailure) {

    /** Jobs one job may wait for ({@code after}) at most. */
    public static final int MAX_AFTER = 100;

    public static final JobChanges NONE = new JobChanges(Change.keep(), Change.keep(), Change.keep(), Change.keep(),
            Change.keep(), Change.keep(), Change.keep(), Change.keep());

    /** The members a PATCH and a create share (the dependencies are a create's or a PUT's alone). */
    public JobChanges(Change<String> data, Change<Instant> scheduledAt, Change<Priority> priority, Change<String> group,
            Change<String> repeat, Change<Integer> maxAttempts) {
        this(data, scheduledAt, priority, group, repeat, maxAttempts, Change.keep(), Change.keep());
    }

    public JobChanges withData(String json) {
        return new JobChanges(Change.to(json), scheduledAt, priority, group, repeat, maxAttempts, after, afterFailure);
    }

    public JobChanges withScheduledAt(Instant at) {
        return new JobChanges(data, Change.to(at), priority, group, repeat, maxAttempts, after, afterFailure);
    }

    public JobChanges withPriority(Priority value) {
        return new JobChanges(data, scheduledAt, Change.to(value), group, repeat, maxAttempts, after, afterFailure);
    }

    public JobChanges withGroup(String value) {
        return new JobChanges(data, scheduledAt, priority, Change.to(value), repeat, maxAttempts, after, afterFailure);
    }

    public JobChanges withRepeat(String value) {
        return new JobChanges(data, scheduledAt, priority, group, Change.to(value), maxAttempts, after, afterFailure);
    }

    public JobChanges withMaxAttempts(int value) {
        return new JobChanges(data, scheduledAt, priority, group, repeat, Change.to(value), after, afterFailure);
    }

    /** The jobs this one waits for (a create's or PUT's {@code after}). */
    public JobChanges withAfter(List<JobRef> jobs) {
        return new JobChanges(data, scheduledAt, priority, group, repeat, maxAttempts, Change.to(jobs), afterFailure);
    }

    public JobChanges withAfterFailure(AfterFailure value) {
        return new JobChanges(data, scheduledAt, priority, group, repeat, maxAttempts, after, Change.to(value));
    }
}
