package io.jobfoundry.kv;

import java.time.Duration;
import java.util.Optional;

/**
 * A store that passes every call on to another, for tests that step in around an attempt (fail it, or act
 * before or after it): they override {@link #runOnce(TransactionBody, Duration, Sync)}.
 */
public abstract class ForwardingStore implements KvStore {

    protected final KvStore delegate;

    protected ForwardingStore(KvStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public final <T> T runOnce(TransactionBody<T> body, Duration timeout) {
        return runOnce(body, timeout, Sync.ON_COMMIT);
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
        return delegate.runOnce(body, timeout, sync);
    }

    @Override
    public String describe() {
        return getClass().getSimpleName() + " over " + delegate.describe();
    }

    @Override
    public Optional<String> failedForGood() {
        return delegate.failedForGood();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
