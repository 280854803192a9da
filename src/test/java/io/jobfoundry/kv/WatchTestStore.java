package io.jobfoundry.kv;

import com.apple.foundationdb.tuple.Versionstamp;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Wraps a store for tests of how the engine watches. It can fail every watch the moment it is
 * asked for, as FoundationDB does when the client holds too many (too_many_watches, 1032) or the
 * cluster is behind (future_version); run something of the test's right before a chosen attempt;
 * and it notes the keys that committed transactions which wrote also read with a read conflict or
 * watched (FoundationDB's watch is such a read): the keys those transactions conflict on; and
 * which of its watches are still open.
 */
public final class WatchTestStore implements KvStore {

    private final KvStore delegate;
    private final AtomicLong attempts = new AtomicLong();
    private final Set<ByteBuffer> conflictsOfWrites = ConcurrentHashMap.newKeySet();
    private final Queue<CompletableFuture<Void>> watches = new ConcurrentLinkedQueue<>();
    private volatile boolean failing;
    private volatile long interposeAt;
    private volatile Supplier<CompletableFuture<?>> interposed;

    public WatchTestStore(KvStore delegate) {
        this.delegate = delegate;
    }

    /** Whether watches fail from now on; off at first. */
    public void failWatches(boolean value) {
        failing = value;
    }

    /** Transaction attempts started through this store so far. */
    public long attempts() {
        return attempts.get();
    }

    /**
     * Runs {@code action} before attempt number {@code attempt} (counted as {@link #attempts()}
     * counts them), which starts once the action's future is done. The attempt must be an
     * asynchronous one, as the engine's are, and the action must not block.
     */
    public void interposeBefore(long attempt, Supplier<CompletableFuture<?>> action) {
        interposed = action;
        interposeAt = attempt;
    }

    /** Watches asked for so far (not counting those failed on purpose). */
    public long watchesAsked() {
        return watches.size();
    }

    /** Watches asked for so far that have neither fired, failed nor been let go of. */
    public long openWatches() {
        return watches.stream().filter(watch -> !watch.isDone()).count();
    }

    /** Whether a committed transaction that wrote read {@code key} with a read conflict, or watched it. */
    public boolean writerConflictedOn(byte[] key) {
        return conflictsOfWrites.contains(ByteBuffer.wrap(key));
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
        return runOnce(body, timeout, Sync.ON_COMMIT);
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
        attempts.incrementAndGet();
        Tx[] tx = new Tx[1];
        T result = delegate.runOnce(inner -> body.apply(tx[0] = new Tx(inner)), timeout, sync);
        tx[0].committed();
        return result;
    }

    @Override
    public <T> CompletableFuture<T> runOnceAsync(TransactionBody<T> body, Duration timeout, Sync sync) {
        long attempt = attempts.incrementAndGet();
        Supplier<CompletableFuture<?>> action = interposed;
        if (action != null && attempt == interposeAt) {
            interposed = null;
            return action.get().handle((ignored, failure) -> null)
                    .thenCompose(ignored -> runAsync(body, timeout, sync));
        }
        return runAsync(body, timeout, sync);
    }

    private <T> CompletableFuture<T> runAsync(TransactionBody<T> body, Duration timeout, Sync sync) {
        Tx[] tx = new Tx[1];
        return delegate.runOnceAsync(inner -> body.apply(tx[0] = new Tx(inner)), timeout, sync)
                .whenComplete((result, failure) -> {
                    if (failure == null) {
                        tx[0].committed();
                    }
                });
    }

    @Override
    public String describe() {
        return "watch-test:" + delegate.describe();
    }

    @Override
    public void close() {
        delegate.close();
    }

    /** The delegate's transaction, with its watches and conflicting reads looked at. */
    private final class Tx implements KvTransaction {
        private final KvTransaction tx;
        private final Set<ByteBuffer> conflicts = new HashSet<>();
        private boolean wrote;

        Tx(KvTransaction tx) {
            this.tx = tx;
        }

        void committed() {
            if (wrote) {
                conflictsOfWrites.addAll(conflicts);
            }
        }

        @Override
        public CompletableFuture<Void> watch(byte[] key) {
            conflicts.add(ByteBuffer.wrap(key.clone()));
            if (!failing) {
                CompletableFuture<Void> watch = tx.watch(key);
                watches.add(watch);
                return watch;
            }
            return CompletableFuture.failedFuture(new StoreException("too many watches (injected)", describe(), null));
        }

        @Override
        public byte[] get(byte[] key) {
            conflicts.add(ByteBuffer.wrap(key.clone()));
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
            wrote = true;
            tx.set(key, value);
        }

        @Override
        public void clear(byte[] key) {
            wrote = true;
            tx.clear(key);
        }

        @Override
        public void clearRange(byte[] begin, byte[] end) {
            wrote = true;
            tx.clearRange(begin, end);
        }

        @Override
        public void add(byte[] key, long delta) {
            wrote = true;
            tx.add(key, delta);
        }

        @Override
        public void addReadConflictKey(byte[] key) {
            conflicts.add(ByteBuffer.wrap(key.clone()));
            tx.addReadConflictKey(key);
        }

        @Override
        public void setVersionstampedKey(byte[] key, int offset, byte[] value) {
            wrote = true;
            tx.setVersionstampedKey(key, offset, value);
        }

        @Override
        public void setVersionstampedValue(byte[] key, byte[] value, int offset) {
            wrote = true;
            tx.setVersionstampedValue(key, value, offset);
        }

        @Override
        public CompletableFuture<Versionstamp> versionstamp() {
            return tx.versionstamp();
        }
    }
}
