package io.jobfoundry.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.kv.RetryableStoreException.Reason;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The retry loop: what ends a run, and what it waits between attempts. */
class TransactionRunnerTest {

    private static final long SECONDS = 10;
    private static final RetryPolicy THREE =
            new RetryPolicy(3, Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO, Duration.ZERO);
    private static final int FAILURES = 12;
    private static final RetryPolicy PATIENT = new RetryPolicy(FAILURES + 1, Duration.ofSeconds(5),
            Duration.ofMillis(1), Duration.ofMillis(200), Duration.ofSeconds(2));

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

    /**
     * Notes each wait the runner asks for and goes on at once: backoffs counted, not slept. Its
     * clock moves only by {@link #elapse}, so the waits never bring a run to its time limit.
     */
    private static final class RecordedPauses implements Pauses {
        final List<Duration> waits = new CopyOnWriteArrayList<>();
        private final AtomicLong now = new AtomicLong();

        @Override
        public void sleep(long nanos) {
            waits.add(Duration.ofNanos(nanos));
        }

        @Override
        public Executor after(long nanos) {
            sleep(nanos);
            return Runnable::run;
        }

        @Override
        public long nanoTime() {
            return now.get();
        }

        void elapse(Duration time) {
            now.addAndGet(time.toNanos());
        }
    }

    /** Fails its first {@code failures} attempts for {@code reason}, then commits. */
    private static class FailingStore implements KvStore {
        final Reason reason;
        final AtomicInteger left;

        FailingStore(Reason reason, int failures) {
            this.reason = reason;
            this.left = new AtomicInteger(failures);
        }

        @Override
        public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
            if (left.getAndDecrement() > 0) {
                throw new RetryableStoreException(reason, "test", null);
            }
            return body.apply(null);
        }

        @Override
        public <T> CompletableFuture<T> runOnceAsync(TransactionBody<T> body, Duration timeout, Sync sync) {
            try {
                return CompletableFuture.completedFuture(runOnce(body, timeout));
            } catch (RetryableStoreException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        @Override
        public String describe() {
            return "failing";
        }

        @Override
        public void close() {
        }
    }

    private static List<Duration> waitsOfABlockingRun(Reason reason) {
        RecordedPauses pauses = new RecordedPauses();
        TransactionRunner runner = new TransactionRunner(new FailingStore(reason, FAILURES), PATIENT, pauses);
        assertEquals("done", runner.run(tx -> "done"));
        assertEquals(FAILURES, runner.retries(reason), "each retry counted under its reason");
        return pauses.waits;
    }

    private static Duration longest(List<Duration> waits) {
        return waits.stream().max(Duration::compareTo).orElseThrow();
    }

    @Test
    void retriesAfterAConflictWaitAtMostTheOrdinaryBound() {
        List<Duration> waits = waitsOfABlockingRun(Reason.CONFLICT);

        assertEquals(FAILURES, waits.size());
        assertTrue(longest(waits).compareTo(PATIENT.maxBackoff()) <= 0, waits.toString());
    }

    @Test
    void retriesAfterTheStoreThrottledWaitLongerButWithinTheThrottledBound() {
        List<Duration> waits = waitsOfABlockingRun(Reason.THROTTLED);

        assertEquals(FAILURES, waits.size());
        // Bounds of 200, 400, 800, 1,600 ms, then 2 s, each wait drawn below its bound: that none
        // exceeds 200 ms has a chance below one in 10^8.
        assertTrue(longest(waits).compareTo(PATIENT.maxBackoff()) > 0, "never longer than a conflict's: " + waits);
        assertTrue(longest(waits).compareTo(PATIENT.throttledBackoff()) <= 0, waits.toString());
        assertTrue(waits.get(0).compareTo(PATIENT.maxBackoff()) <= 0, "the first step's bound is the ordinary cap");
    }

    @Test
    void theAsynchronousRunWaitsAsTheBlockingOneDoes() throws Exception {
        RecordedPauses pauses = new RecordedPauses();
        TransactionRunner runner = new TransactionRunner(new FailingStore(Reason.THROTTLED, FAILURES), PATIENT, pauses);

        assertEquals("done", runner.runAsync(tx -> "done", Sync.ON_COMMIT).get(SECONDS, TimeUnit.SECONDS));

        assertEquals(FAILURES, pauses.waits.size());
        assertEquals(FAILURES, runner.retries(Reason.THROTTLED));
        assertTrue(longest(pauses.waits).compareTo(PATIENT.maxBackoff()) > 0, pauses.waits.toString());
        assertTrue(longest(pauses.waits).compareTo(PATIENT.throttledBackoff()) <= 0, pauses.waits.toString());
    }

    @Test
    void aPolicyWhoseThrottledBoundIsBelowItsOrdinaryOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, Duration.ofSeconds(5),
                Duration.ZERO, Duration.ofMillis(200), Duration.ofMillis(100)));
    }

    /** A store that does not answer costs a run three attempt timeouts, not the policy's every attempt. */
    @Test
    void aRunEndsOnceThreeAttemptTimeoutsHavePassed() throws Exception {
        for (boolean async : new boolean[] {false, true}) {
            RecordedPauses pauses = new RecordedPauses();
            // Each attempt waits out its whole timeout before it fails.
            FailingStore store = new FailingStore(Reason.TIMEOUT, FAILURES) {
                @Override
                public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
                    pauses.elapse(timeout);
                    return super.runOnce(body, timeout);
                }
            };
            TransactionRunner runner = new TransactionRunner(store, PATIENT, pauses);

            Throwable failure = async
                    ? assertThrows(ExecutionException.class, () -> runner.runAsync(tx -> "done", Sync.ON_COMMIT)
                            .get(SECONDS, TimeUnit.SECONDS)).getCause()
                    : assertThrows(RetriesExhaustedException.class, () -> runner.run(tx -> "done"));

            RetriesExhaustedException exhausted = assertInstanceOf(RetriesExhaustedException.class, failure);
            assertEquals(PATIENT.runLimit().dividedBy(PATIENT.timeout()), exhausted.attempts(), "attempts made");
            assertEquals(Reason.TIMEOUT, assertInstanceOf(RetryableStoreException.class, exhausted.getCause()).reason());
        }
    }

    /** A short attempt timeout does not leave a run without room to retry a conflict or two. */
    @Test
    void aRunMayRetryForThreeAttemptTimeoutsAndAtLeastFifteenSeconds() {
        assertEquals(Duration.ofSeconds(15),
                new RetryPolicy(100, Duration.ofMillis(200), Duration.ZERO, Duration.ZERO, Duration.ZERO).runLimit());
        assertEquals(Duration.ofSeconds(30),
                new RetryPolicy(100, Duration.ofSeconds(10), Duration.ZERO, Duration.ZERO, Duration.ZERO).runLimit());
    }

    /** Faults that fail at once are retried up to the policy's attempts, whatever their kind. */
    @Test
    void quickTimeoutsAreRetriedLikeAnyFault() {
        assertEquals(FAILURES, waitsOfABlockingRun(Reason.TIMEOUT).size());
    }
}
