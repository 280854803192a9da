package io.jobfoundry.kv;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

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

    /**
     * One attempt without blocking the caller: the future completes when the attempt committed or
     * failed, as {@link #runOnce} would return or throw. Callbacks on it may run on the store's own
     * thread and must be short. This default runs the attempt on a thread of its own; a store
     * with a queue of its own (the embedded one) completes the future from it instead.
     */
    default <T> CompletableFuture<T> runOnceAsync(TransactionBody<T> body, Duration timeout, Sync sync) {
        return CompletableFuture.supplyAsync(() -> runOnce(body, timeout, sync), AsyncFallback.EXECUTOR);
    }

    /** A short description for logs and health checks, such as the file or the cluster file. */
    String describe();

    /**
     * Why this store takes no more work until the process restarts, if it is in that state: a
     * liveness probe reports it, so that the process is restarted instead of kept unready.
     */
    default Optional<String> failedForGood() {
        return Optional.empty();
    }

    @Override
    void close();
}
