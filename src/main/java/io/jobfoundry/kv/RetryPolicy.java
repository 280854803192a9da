package io.jobfoundry.kv;

import java.time.Duration;

/**
 * How {@link TransactionRunner} retries: at most {@code maxAttempts} attempts of at most
 * {@code timeout} each, with capped exponential backoff and full jitter between them (as FDB's
 * {@code onError} does) so that conflicting clients do not retry in lock step.
 */
public record RetryPolicy(int maxAttempts, Duration timeout, Duration initialBackoff, Duration maxBackoff) {

    public static final RetryPolicy DEFAULT =
            new RetryPolicy(100, Duration.ofSeconds(5), Duration.ofMillis(1), Duration.ofMillis(200));

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (initialBackoff.isNegative() || maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("backoff must satisfy 0 <= initial <= max");
        }
    }
}
