package io.jobfoundry.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The retry loop: what ends a run, and what it waits between attempts. */
class TransactionRunnerTest {

    private static final long SECONDS = 10;
    private static final RetryPolicy THREE =
            new RetryPolicy(3, Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO);

    /** A store whose asynchronous attempts fail retryably, then throw instead of failing their future. */
    private static final class ThrowingStore implements KvStore {
        final AtomicInteger attempts = new AtomicInteger();
        final int failFirst;
        final IllegalStateException thrown = new IllegalStateException("the store broke");

        ThrowingStore(int failFirst) {
            this.failFirst = failFirst;
        }

        @Override
        public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
            throw new AssertionError("the asynchronous run must not block");
        }

        @Override
        public <T> CompletableFuture<T> runOnceAsync(TransactionBody<T> body, Duration timeout, Sync sync) {
            if (attempts.incrementAndGet() <= failFirst) {
                return CompletableFuture.failedFuture(
                        new RetryableStoreException(RetryableStoreException.Reason.CONFLICT, "test", null));
            }
            throw thrown;
        }

        @Override
        public String describe() {
            return "throwing";
        }

        @Override
        public void close() {
        }
    }

    @Test
    void anAsynchronousRunWhoseStoreThrowsAfterARetryFailsWithWhatItThrew() {
        ThrowingStore store = new ThrowingStore(1);

        CompletableFuture<Object> run = new TransactionRunner(store, THREE).runAsync(tx -> null, Sync.ON_COMMIT);

        ExecutionException failed = assertThrows(ExecutionException.class, () -> run.get(SECONDS, TimeUnit.SECONDS));
        assertSame(store.thrown, failed.getCause());
        assertEquals(2, store.attempts.get());
    }

    @Test
    void anAsynchronousRunWhoseStoreThrowsAtOnceFailsItsFutureInsteadOfThrowing() {
        ThrowingStore store = new ThrowingStore(0);

        CompletableFuture<Object> run = new TransactionRunner(store, THREE).runAsync(tx -> null, Sync.ON_COMMIT);

        ExecutionException failed = assertThrows(ExecutionException.class, () -> run.get(SECONDS, TimeUnit.SECONDS));
        assertSame(store.thrown, failed.getCause());
    }
}
