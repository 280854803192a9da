package io.jobfoundry.jobs.model;

import java.time.Duration;

/**
 * How long a type's finished jobs are kept, per result, before they are removed as by a
 * {@code DELETE}: {@link Duration#ZERO} removes one as soon as it finishes, {@code null} keeps it.
 * A job that will run again (a repeat, a resubmit) is never finished, so never removed by it.
 */
public record Retention(Duration succeeded, Duration failed, Duration cancelled) {

    /** The longest time a finished job is kept short of for good (what every other duration setting takes at most).
     * Declared before DEFAULT: the constructor building DEFAULT reads it. */
    public static final Duration LONGEST = Duration.ofDays(365);

    /** River's and Sidekiq's choice: successes for a day, failures for a week, for a look at why. */
    public static final Retention DEFAULT = new Retention(Duration.ofDays(1), Duration.ofDays(7), Duration.ofDays(1));

    public Retention {
        check("retention.succeeded", succeeded);
        check("retention.failed", failed);
        check("retention.cancelled", cancelled);
    }

    private static void check(String field, Duration kept) {
        if (kept != null && (kept.isNegative() || kept.compareTo(LONGEST) > 0)) {
            throw new InvalidJobRequestException(field, field + " must be within 0 s and 365 days, or null to keep");
        }
    }

    /** How long a job finished with {@code result} is kept; null: for good. */
    public Duration of(JobResult result) {
        return switch (result) {
            case SUCCEEDED -> succeeded;
            case FAILED -> failed;
            case CANCELLED -> cancelled;
        };
    }
}
