package io.jobfoundry.kv;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** How {@link TransactionRunner} waits out a backoff and times a run: in real time, or, in tests, not at all. */
interface Pauses {

    Pauses REAL = new Pauses() {
        @Override
        public void sleep(long nanos) {
            if (nanos <= 0) {
                return;
            }
            LockSupport.parkNanos(nanos);
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new StoreClosedException("interrupted while waiting to retry a transaction", "runner");
            }
        }

        @Override
        public Executor after(long nanos) {
            return CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }
    };

    /** Blocks the calling thread for {@code nanos}: the blocking run, whose caller waits anyway. */
    void sleep(long nanos);

    /** Runs its tasks {@code nanos} from now, holding no thread meanwhile: the asynchronous run. */
    Executor after(long nanos);

    /** The time a run's length is measured in ({@link System#nanoTime()}). */
    long nanoTime();
}
