package io.jobfoundry.kv;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The waits between the attempts of one run of {@link TransactionRunner}: each step's bound
 * doubles from the policy's initial backoff, and the wait is drawn at random up to it (full
 * jitter). The bound is capped by the reason the last attempt failed: {@link RetryPolicy#maxBackoff}
 * for most, {@link RetryPolicy#throttledBackoff} when the store throttled, and a throttled step
 * waits at least up to {@code maxBackoff}, since the cluster is overloaded at once, not after a
 * few quick retries. Used by one attempt at a time.
 */
final class Backoff {

    /** Attempts of one transaction the store may fail as {@link RetryableStoreException.Reason#FULL}. */
    static final int FULL_ATTEMPTS = 3;

    private final long maxNanos;
    private final long throttledNanos;
    private long boundNanos;
    private int fullFailures;

    Backoff(RetryPolicy policy) {
        this.maxNanos = policy.maxBackoff().toNanos();
        this.throttledNanos = policy.throttledBackoff().toNanos();
        this.boundNanos = policy.initialBackoff().toNanos();
    }

    /** Whether the run stops after an attempt failed for {@code reason}, although the policy allows more. */
    boolean givesUp(RetryableStoreException.Reason reason) {
        return reason == RetryableStoreException.Reason.FULL && ++fullFailures >= FULL_ATTEMPTS;
    }

    /** After an attempt failed for {@code reason}: how long to wait, in nanoseconds, before the next. */
    long next(RetryableStoreException.Reason reason) {
        long step = reason == RetryableStoreException.Reason.THROTTLED
                ? Math.min(throttledNanos, Math.max(boundNanos, maxNanos))
                : Math.min(boundNanos, maxNanos);
        boundNanos = Math.min(throttledNanos, Math.max(1, step * 2));
        return step <= 0 ? 0 : ThreadLocalRandom.current().nextLong(step + 1);
    }
}
