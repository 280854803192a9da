package io.jobfoundry.kv;

import com.apple.foundationdb.tuple.Versionstamp;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wraps a store so that, while switched on, every watch fails the moment it is asked for, as
 * FoundationDB's do when the client holds too many (too_many_watches, 1032) or the cluster is
 * behind (future_version). It also counts the attempts run, so a test can tell a waiter that
 * backs off from one that spins through transactions.
 */
public final class FailingWatchStore implements KvStore {

    private final KvStore delegate;
    private final AtomicLong attempts = new AtomicLong();
    private volatile boolean failing = true;

    public FailingWatchStore(KvStore delegate) {
        this.delegate = delegate;
    }

    /** Whether watches fail from now on; on by default. */
    public void failWatches(boolean value) {
        failing = value;
    }

    /** Transaction attempts started through this store so far. */
    public long attempts() {
        return attempts.get();
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
        return runOnce(body, timeout, Sync.ON_COMMIT);
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
        attempts.incrementAndGet();
        return delegate.runOnce(tx -> body.apply(new Tx(tx)), timeout, sync);
    }

    @Override
    public <T> CompletableFuture<T> runOnceAsync(TransactionBody<T> body, Duration timeout, Sync sync) {
        attempts.incrementAndGet();
        return delegate.runOnceAsync(tx -> body.apply(new Tx(tx)), timeout, sync);
    }

    @Override
    public String describe() {
        return "failing-watches:" + delegate.describe();
    }

    @Override
    public void close() {
        delegate.close();
    }

    /** The delegate's transaction, but for its watches. */
    private final class Tx implements KvTransaction {
        private final KvTransaction tx;

        Tx(KvTransaction tx) {
            this.tx = tx;
        }

        @Override
        public CompletableFuture<Void> watch(byte[] key) {
            if (!failing) {
                return tx.watch(key);
            }
            return CompletableFuture.failedFuture(new StoreException("too many watches (injected)", describe(), null));
        }

        @Override
        public byte[] get(byte[] key) {
            return tx.get(key);
        }

        @Override
        public List<KeyValue> getRange(byte[] begin, byte[] end, int limit, boolean reverse) {
            return tx.getRange(begin, end, limit, reverse);
        }

        @Override
        public KvReads snapshot() {
            return tx.snapshot();
        }

        @Override
        public void set(byte[] key, byte[] value) {
            tx.set(key, value);
        }

        @Override
        public void clear(byte[] key) {
            tx.clear(key);
        }

        @Override
        public void clearRange(byte[] begin, byte[] end) {
            tx.clearRange(begin, end);
        }

        @Override
        public void add(byte[] key, long delta) {
            tx.add(key, delta);
        }

        @Override
        public void addReadConflictKey(byte[] key) {
            tx.addReadConflictKey(key);
        }

        @Override
        public void setVersionstampedKey(byte[] key, int offset, byte[] value) {
            tx.setVersionstampedKey(key, offset, value);
        }

        @Override
        public void setVersionstampedValue(byte[] key, byte[] value, int offset) {
            tx.setVersionstampedValue(key, value, offset);
        }

        @Override
        public CompletableFuture<Versionstamp> versionstamp() {
            return tx.versionstamp();
        }
    }
}
