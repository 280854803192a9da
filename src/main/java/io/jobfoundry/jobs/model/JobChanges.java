package io.jobfoundry.jobs.model;

import java.time.Instant;

/**
 * The members of an add (PUT/POST) or a PATCH. For a new job, members not given take the type's
 * defaults; for an existing job they stay as they are. {@code data} is JSON text (an object or
 * {@code null}), validated by the caller; {@code repeat} is a repeat expression.
 */
public record JobChanges(
        Change<String> data,
        Change<Instant> scheduledAt,
        Change<Priority> priority,
        Change<String> group,
        Change<String> repeat,
        Change<Integer> maxAttempts) {

    public static final JobChanges NONE =
            new JobChanges(Change.keep(), Change.keep(), Change.keep(), Change.keep(), Change.keep(), Change.keep());

    public JobChanges withData(String json) {
        return new JobChanges(Change.to(json), scheduledAt, priority, group, repeat, maxAttempts);
    }

    public JobChanges withScheduledAt(Instant at) {
        return new JobChanges(data, Change.to(at), priority, group, repeat, maxAttempts);
    }

    public JobChanges withPriority(Priority value) {
        return new JobChanges(data, scheduledAt, Change.to(value), group, repeat, maxAttempts);
    }

    public JobChanges withGroup(String value) {
        return new JobChanges(data, scheduledAt, priority, Change.to(value), repeat, maxAttempts);
    }

    public JobChanges withRepeat(String value) {
        return new JobChanges(data, scheduledAt, priority, group, Change.to(value), maxAttempts);
    }

    public JobChanges withMaxAttempts(int value) {
        return new JobChanges(data, scheduledAt, priority, group, repeat, Change.to(value));
    }
}
