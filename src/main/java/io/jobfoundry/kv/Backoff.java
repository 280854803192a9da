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

    /**
     * Attempts of one run that may time out. Each waits out the whole attempt timeout: against a
     * store that does not answer (an unreachable FDB cluster), the policy's 100 attempts would
     * hold the request, or a monitor's batch, for eight minutes. FDB's own retry loop does not
     * retry {@code transaction_timed_out} at all; a few attempts still ride out a slow moment.
     */
    static final int TIMEOUT_ATTEMPTS = 3;

    private final long maxNanos;
    private final long throttledNanos;
    private long boundNanos;
    private int fullFailures;
    private int timeouts;

    Backoff(RetryPolicy policy) {
        this.maxNanos = policy.maxBackoff().toNanos();
        this.throttledNanos = policy.throttledBackoff().toNanos();
        this.boundNanos = policy.initialBackoff().toNanos();
    }

    /** Whether the run stops after an attempt failed for {@code reason}, although the policy allows more. */
    boolean givesUp(RetryableStoreException.Reason reason) {
        return switch (reason) {
            case FULL -> ++fullFailures >= FULL_ATTEMPTS;
            case TIMEOUT -> ++timeouts >= TIMEOUT_ATTEMPTS;
            default -> false;
        };
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
