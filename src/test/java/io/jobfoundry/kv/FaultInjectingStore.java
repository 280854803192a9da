package io.jobfoundry.kv;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wraps a store and fails a chosen fraction of commits retryably, the way couch_jobs reran its
 * suite with FDB errors injected: either before the effect (a conflict or a timeout: nothing was
 * written) or after it ({@code commit_unknown_result}: everything was written, yet the caller is
 * told to retry). An engine whose operations survive this is safe to run under any retry loop.
 */
public final class FaultInjectingStore implements KvStore {

    /** Where faults strike. */
    public enum Mode { BEFORE_COMMIT, AFTER_COMMIT, BOTH }

    private final KvStore delegate;
    private final double fraction;
    private final Mode mode;
    private final Random random;
    private final AtomicLong injected = new AtomicLong();
    private volatile boolean enabled = true;

    public FaultInjectingStore(KvStore delegate, double fraction, Mode mode, long seed) {
        if (fraction < 0 || fraction > 1) {
            throw new IllegalArgumentException("fraction must be within 0..1");
        }
        this.delegate = delegate;
        this.fraction = fraction;
        this.mode = mode;
        this.random = new Random(seed);
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
        return runOnce(body, timeout, Sync.ON_COMMIT);
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
        if (!enabled || !strike()) {
            return delegate.runOnce(body, timeout, sync);
        }
        injected.incrementAndGet();
        boolean after = switch (mode) {
            case BEFORE_COMMIT -> false;
            case AFTER_COMMIT -> true;
            case BOTH -> coin();
        };
        if (after) {
            delegate.runOnce(body, timeout, sync);
            throw new RetryableStoreException(RetryableStoreException.Reason.COMMIT_UNKNOWN, describe(), null);
        }
        // Run the body for real, then refuse to commit it: its reads and writes happened and vanish.
        RetryableStoreException fault = new RetryableStoreException(
                coin() ? RetryableStoreException.Reason.CONFLICT : RetryableStoreException.Reason.TIMEOUT,
                describe(), null);
        return delegate.runOnce(tx -> {
            body.apply(tx);
            throw fault;
        }, timeout, sync);
    }

    private synchronized boolean strike() {
        return random.nextDouble() < fraction;
    }

    private synchronized boolean coin() {
        return random.nextBoolean();
    }

    /** Faults injected so far. */
    public long injected() {
        return injected.get();
    }

    /** Turns injection on or off, e.g. to check the outcome with plain reads. */
    public void setEnabled(boolean value) {
        enabled = value;
    }

    @Override
    public String describe() {
        return "faulty(" + fraction + ", " + mode + "):" + delegate.describe();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
