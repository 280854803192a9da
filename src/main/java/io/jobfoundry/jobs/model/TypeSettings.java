package io.jobfoundry.jobs.model;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * A type's configuration. The priority scheme {@code [high, low]} hands out {@code high} jobs of
 * priority high, then {@code low} of priority low, and again (docspell's counting scheme); an empty
 * class gives its turn to the other. Failed attempts retry after {@code base · 2^(attempt−1)},
 * capped at {@code max}, with jitter. Finished jobs are kept as long as {@code retention} says.
 * {@code push}, if not null, has the service deliver the type's jobs to an HTTP target
 * ({@link PushTarget}); its timeout is at most the activity timeout. {@code concurrency} (never null,
 * {@link Concurrency#NONE} for no limit) and {@code rateLimit} (null for none) bound how many jobs
 * run at once and how many start per window.
 */
public record TypeSettings(Duration activityTimeout, int maxAttempts, int highRun, int lowRun,
        Duration backoffBase, Duration backoffMax, Retention retention, PushTarget push, Concurrency concurrency,
        RateLimit rateLimit) {

    /** The longest duration a setting takes. Declared before DEFAULT: the constructor building DEFAULT reads it. */
    public static final Duration LONGEST = Duration.ofDays(365);

    /** The shortest activity timeout; the backoff may be zero. Declared before DEFAULT, like LONGEST. */
    public static final Duration SHORTEST_ACTIVITY_TIMEOUT = Duration.ofSeconds(1);

    public static final TypeSettings DEFAULT =
            new TypeSettings(Duration.ofSeconds(30), 25, 2, 1, Duration.ofSeconds(5), Duration.ofHours(1));

    /** Settings with the default retention, pulled only. */
    public TypeSettings(Duration activityTimeout, int maxAttempts, int highRun, int lowRun, Duration backoffBase,
            Duration backoffMax) {
        this(activityTimeout, maxAttempts, highRun, lowRun, backoffBase, backoffMax, Retention.DEFAULT);
    }

    /** Settings without limits. */
    public TypeSettings(Duration activityTimeout, int maxAttempts, int highRun, int lowRun, Duration backoffBase,
            Duration backoffMax, Retention retention, PushTarget push) {
        this(activityTimeout, maxAttempts, highRun, lowRun, backoffBase, backoffMax, retention, push, Concurrency.NONE,
                null);
    }

    /** Settings of a type its processors pull (no push target). */
    public TypeSettings(Duration activityTimeout, int maxAttempts, int highRun, int lowRun, Duration backoffBase,
            Duration backoffMax, Retention retention) {
        this(activityTimeout, maxAttempts, highRun, lowRun, backoffBase, backoffMax, retention, null);
    }

    public static final int MAX_ATTEMPTS_LIMIT = 1000;

    /** A setting's duration as clients write it: whole seconds as an integer, else with the milliseconds (30, 0.5). */
    public static BigDecimal seconds(Duration duration) {
        BigDecimal seconds = BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros();
        return seconds.scale() < 0 ? seconds.setScale(0) : seconds;
    }

    public TypeSettings {
        requireWithin("activityTimeout", activityTimeout, SHORTEST_ACTIVITY_TIMEOUT);
        requireWithin("backoff.base", backoffBase, Duration.ZERO);
        requireWithin("backoff.max", backoffMax, Duration.ZERO);
        if (backoffMax.compareTo(backoffBase) < 0) {
            throw new InvalidJobRequestException("backoff", "backoff.max must not be less than backoff.base");
        }
        checkMaxAttempts(maxAttempts);
        if (retention == null) {
            throw new InvalidJobRequestException("retention", "retention must be given (its members may be null)");
        }
        if (highRun < 0 || lowRun < 0 || highRun + lowRun == 0 || highRun > 1000 || lowRun > 1000) {
            throw new InvalidJobRequestException("priorityScheme",
                    "priorityScheme is [high, low]: two counts within 0..1000, not both 0, e.g. [2, 1]");
        }
        if (concurrency == null) {
            throw new InvalidJobRequestException("concurrency", "concurrency must be given (its members may be null)");
        }
        if (push != null && push.timeout().compareTo(activityTimeout) > 0) {
            throw new InvalidJobRequestException("push.timeout", "push.timeout must not be more than activityTimeout ("
                    + seconds(activityTimeout).toPlainString() + " s)");
        }
    }

    /** These settings with {@code push} (null: pulled only). */
    public TypeSettings withPush(PushTarget push) {
        return new TypeSettings(activityTimeout, maxAttempts, highRun, lowRun, backoffBase, backoffMax, retention, push,
                concurrency, rateLimit);
    }

    /** These settings with the limits given (null rate limit: none). */
    public TypeSettings withLimits(Concurrency concurrency, RateLimit rateLimit) {
        return new TypeSettings(activityTimeout, maxAttempts, highRun, lowRun, backoffBase, backoffMax, retention, push,
                concurrency, rateLimit);
    }

    /** Whether accept has anything to check beyond pause: without, it reads and writes nothing for limits. */
    public boolean limited() {
        return concurrency.limited() || rateLimit != null;
    }

    public static void checkMaxAttempts(int maxAttempts) {
        if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_LIMIT) {
            throw new InvalidJobRequestException("maxAttempts", "maxAttempts must be within 1.." + MAX_ATTEMPTS_LIMIT);
        }
    }

    private static void requireWithin(String field, Duration value, Duration least) {
        if (value == null || value.compareTo(least) < 0 || value.compareTo(LONGEST) > 0) {
            throw new InvalidJobRequestException(field, field + " must be within " + least.toSeconds()
                    + " s and 365 days");
        }
    }

    public TypeSettings withRetention(Retention retention) {
        return new TypeSettings(activityTimeout, maxAttempts, highRun, lowRun, backoffBase, backoffMax, retention, push,
                concurrency, rateLimit);
    }

    /** The wait before the next attempt after {@code attempt} failed ones, before jitter. */
    public Duration backoff(int attempt) {
        long max = backoffMax.toMillis();
        long millis = backoffBase.toMillis();
        for (int i = 1; i < attempt && millis < max; i++) {
            millis *= 2;
        }
        return Duration.ofMillis(Math.min(millis, max));
    }
}
