package io.jobfoundry.kv;

import java.time.Duration;

/**
 * How {@link TransactionRunner} retries: at most {@code maxAttempts} attempts of at most
 * {@code timeout} each, for at most {@link #runLimit()} in all, with capped exponential backoff and full jitter between them (as FDB's
 * {@code onError} does) so that conflicting clients do not retry in lock step. A step waits at most
 * {@code maxBackoff}; after an attempt the store {@link RetryableStoreException.Reason#THROTTLED
 * throttled}, at least that and up to {@code throttledBackoff}: a conflict clears in milliseconds,
 * an overloaded cluster does not, and retrying it quickly only adds to its load.
 */
public record RetryPolicy(int maxAttempts, Duration timeout, Duration initialBackoff, Duration maxBackoff,
        Duration throttledBackoff) {

    /**
     * 2 s a step when throttled: longer than FDB's own 1 s ceiling for ordinary retries, yet a run
     * that the cluster throttles still tries again within seconds (FDB's 30 s ceiling for a proxy
     * out of memory would hold a waiting request past any HTTP timeout).
     */
    public static final RetryPolicy DEFAULT = new RetryPolicy(100, Duration.ofSeconds(5), Duration.ofMillis(1),
            Duration.ofMillis(200), Duration.ofSeconds(2));

    /** How many attempt timeouts a run may go on retrying for: see {@link #runLimit()}. */
    static final int RUN_TIMEOUTS = 3;

    /** The least {@link #runLimit()}, so that a short attempt timeout does not leave no room to retry. */
    static final Duration SHORTEST_RUN_LIMIT = Duration.ofSeconds(15);

    /**
     * How long a run goes on starting attempts: three attempt timeouts, and at least 15 s (15 s by
     * default). Against a store that does not answer (an unreachable FDB cluster) every attempt
     * waits out its whole timeout, and the policy's 100 attempts would hold the request, or a
     * monitor's batch that should shrink, for eight minutes; FDB's own timeout likewise covers its
     * whole retry loop. Faults that fail at once (conflicts) rarely come near it.
     */
    public Duration runLimit() {
        Duration limit = timeout.multipliedBy(RUN_TIMEOUTS);
        return limit.compareTo(SHORTEST_RUN_LIMIT) < 0 ? SHORTEST_RUN_LIMIT : limit;
    }

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0
                || throttledBackoff.compareTo(maxBackoff) < 0) {
            throw new IllegalArgumentException("backoff must satisfy 0 <= initial <= max <= throttled");
        }
    }
}
