package io.jobfoundry.client;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How calls are repeated after a {@code 503} (the store failed or did not answer in time) or a lost
 * connection: up to {@code maxAttempts} attempts in all, waiting {@code initialDelay·2^(n−1)} capped at
 * {@code maxDelay}, with equal jitter (between half of that and all of it) so that many clients hit by one
 * outage do not come back in step. A {@code Retry-After} from the service is honoured up to {@code maxDelay}.
 *
 * @param maxAttempts attempts in all, at least 1 (1: no retry)
 * @param initialDelay the first wait
 * @param maxDelay the longest wait
 */
public record RetryPolicy(int maxAttempts, Duration initialDelay, Duration maxDelay) {

    /**
     * Checks the members.
     *
     * @param maxAttempts attempts in all
     * @param initialDelay the first wait
     * @param maxDelay the longest wait
     */
    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (initialDelay.isNegative() || maxDelay.compareTo(initialDelay) < 0) {
            throw new IllegalArgumentException("need 0 <= initialDelay <= maxDelay");
        }
    }

    /** @return 8 attempts, 100 ms doubling up to 5 s: rides out about 15 s of outage */
    public static RetryPolicy defaults() {
        return new RetryPolicy(8, Duration.ofMillis(100), Duration.ofSeconds(5));
    }

    /** @return one attempt, no retry */
    public static RetryPolicy none() {
        return new RetryPolicy(1, Duration.ZERO, Duration.ZERO);
    }

    /**
     * The wait before attempt {@code attempt + 1}.
     *
     * @param attempt the attempt that just failed, from 1
     * @param retryAfter what the service asked for, or {@code null}
     * @return the wait, jittered and capped
     */
    public Duration delay(int attempt, Duration retryAfter) {
        long cap = maxDelay.toNanos();
        long base = initialDelay.toNanos() << Math.min(attempt - 1, 30);
        long full = base <= 0 || base > cap ? cap : base;
        long jittered = full / 2 + (full / 2 > 0 ? ThreadLocalRandom.current().nextLong(full / 2 + 1) : 0);
        if (retryAfter != null) {
            jittered = Math.max(jittered, Math.min(retryAfter.toNanos(), cap));
        }
        return Duration.ofNanos(jittered);
    }
}
