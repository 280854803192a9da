package io.jobfoundry.kv;

import java.time.Duration;

/**
 * A key-value store with FoundationDB's semantics: the gateway every backend implements. It runs
 * exactly one attempt of a transaction; {@link TransactionRunner} adds the retry loop, so that
 * every backend (and the fault-injecting wrapper) shares one retry policy.
 */
public interface KvStore extends AutoCloseable {

    /**
     * Runs {@code body} once and commits. Fails with {@link RetryableStoreException} when another
     * attempt may succeed, with another {@link StoreException} when it may not; an exception the
     * body throws itself aborts the attempt and is rethrown unchanged.
     */
    <T> T runOnce(TransactionBody<T> body, Duration timeout);

    /** {@link #runOnce(TransactionBody, Duration)}, with when the commit must be synced; most stores always sync. */
    default <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
        return runOnce(body, timeout);
    }

    /** A short description for logs and health checks, such as the file or the cluster file. */
    String describe();

    @Override
    void close();
}
