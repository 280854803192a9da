package io.jobfoundry.kv;

import io.jobfoundry.Futures;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * The one place transactions are retried (fdb-record-layer's runner, FDB's {@code run}): every
 * engine operation goes through {@link #run}, so every operation gets the same bounded loop and
 * every backend the same policy. The wait between attempts depends on why the last one failed
 * ({@link Backoff}).
 */
public final class TransactionRunner {

    private final KvStore store;
    private final RetryPolicy policy;
    private final Pauses pauses;
    private final LongAdder committed = new LongAdder();
    private final LongAdder[] retries = new LongAdder[RetryableStoreException.Reason.values().length];

    public TransactionRunner(KvStore store, RetryPolicy policy) {
        this(store, policy, Pauses.REAL);
    }

    TransactionRunner(KvStore store, RetryPolicy policy, Pauses pauses) {
        this.store = Objects.requireNonNull(store);
        this.policy = Objects.requireNonNull(policy);
        this.pauses = Objects.requireNonNull(pauses);
        for (int i = 0; i < retries.length; i++) {
            retries[i] = new LongAdder();
        }
    }

    public KvStore store() {
        return store;
    }

    /** Runs {@code body} as a transaction until one attempt commits, or the policy gives up. */
    public <T> T run(TransactionBody<T> body) {
        return run(body, Sync.ON_COMMIT);
    }

    /** {@link #run(TransactionBody)}, whose commit may be acknowledged before it is synced (see {@link Sync}). */
    public <T> T run(TransactionBody<T> body, Sync sync) {
        Backoff backoff = new Backoff(policy);
        long started = pauses.nanoTime();
        for (int attempt = 1; ; attempt++) {
            try {
                T result = store.runOnce(body, policy.timeout(), sync);
                committed.increment();
                return result;
            } catch (RetryableStoreException e) {
                long wait = nextWait(attempt, backoff, e, started);
                retries[e.reason().ordinal()].increment();
                pauses.sleep(wait);
            }
        }
    }

    /**
     * {@link #run(TransactionBody, Sync)} without blocking: the same attempts, policy and counts,
     * the backoff between attempts waited out by a timer, not a thread. The future fails with what
     * {@code run} would throw.
     */
    public <T> CompletableFuture<T> runAsync(TransactionBody<T> body, Sync sync) {
        CompletableFuture<T> result = new CompletableFuture<>();
        attempt(body, sync, 1, new Backoff(policy), pauses.nanoTime(), result);
        return result;
    }

    /**
     * How long to wait before the next attempt, after {@code failed} ended attempt {@code attempt}
     * of a run that began at {@code started}; throws once the run is over: out of attempts, given
     * up on ({@link Backoff#givesUp}), or past {@link RetryPolicy#runLimit()} by the time the
     * next attempt would begin.
     */
    private long nextWait(int attempt, Backoff backoff, RetryableStoreException failed, long started) {
        if (attempt >= policy.maxAttempts() || backoff.givesUp(failed.reason())) {
            throw new RetriesExhaustedException(attempt, failed);
        }
        long wait = backoff.next(failed.reason());
        if (pauses.nanoTime() - started + wait >= policy.runLimit().toNanos()) {
            throw new RetriesExhaustedException(attempt, failed);
        }
        return wait;
    }

    private <T> void attempt(TransactionBody<T> body, Sync sync, int attempt, Backoff backoff, long started,
            CompletableFuture<T> result) {
        CompletableFuture<T> once;
        try {
            once = store.runOnceAsync(body, policy.timeout(), sync);
        } catch (RuntimeException e) {
            // A store that throws instead of failing its future: after a backoff this runs on the
            // timer's thread, where the exception would vanish and leave the run's future open.
            once = CompletableFuture.failedFuture(e);
        }
        Futures.whenDone(once, (value, failure) -> {
            if (failure == null) {
                committed.increment();
                result.complete(value);
                return;
            }
            Throwable cause = Futures.cause(failure);
            if (!(cause instanceof RetryableStoreException retryable)) {
                result.completeExceptionally(cause);
                return;
            }
            long wait;
            try {
                wait = nextWait(attempt, backoff, retryable, started);
            } catch (RetriesExhaustedException exhausted) {
                result.completeExceptionally(exhausted);
                return;
            }
            retries[retryable.reason().ordinal()].increment();
            pauses.after(wait).execute(() -> attempt(body, sync, attempt + 1, backoff, started, result));
        });
    }

    /** Transactions that committed (read-only ones included), since start. */
    public long committed() {
        return committed.sum();
    }

    /** Attempts that were run again, since start. */
    public long retries() {
        long sum = 0;
        for (LongAdder adder : retries) {
            sum += adder.sum();
        }
        return sum;
    }

    /** Attempts run again because the previous one failed for {@code reason}, since start. */
    public long retries(RetryableStoreException.Reason reason) {
        return retries[reason.ordinal()].sum();
    }

    /** Attempts that failed on a conflict and were run again, since start. */
    public long conflicts() {
        return retries(RetryableStoreException.Reason.CONFLICT);
    }

    @Override
    public String toString() {
        return "TransactionRunner[" + store.describe() + ", " + policy + "]";
    }
}
