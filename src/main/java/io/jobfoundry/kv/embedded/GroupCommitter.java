package io.jobfoundry.kv.embedded;

import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.StoreException;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * Group commit, the way FoundationDB batches commits: the committer thread takes every transaction
 * waiting, runs their bodies back to back inside one SQLite transaction (each under its own
 * savepoint, so a body that throws is undone alone) and makes the whole batch durable with one
 * commit and one sync, then acknowledges them together. If the batch cannot be written, every
 * transaction in it fails retryably and none is half-applied. Atomic adds are summed per key over
 * the batch and written once before the commit ({@link BatchAdds}).
 */
final class GroupCommitter implements Runnable {

    private final SqliteKeySpace keys;
    private final String storeName;
    private final int maxBatch;
    private final WatchRegistry watches;
    private final LongConsumer batchSizes;
    private final boolean fsync;
    private final AtomicLong syncedBatches = new AtomicLong();
    private final BlockingQueue<CommitRequest<?>> queue = new LinkedBlockingQueue<>();
    private final BatchAdds adds = new BatchAdds();
    private long committedVersion;
    private volatile boolean closing;

    GroupCommitter(SqliteKeySpace keys, String storeName, int maxBatch, WatchRegistry watches,
            LongConsumer batchSizes, boolean fsync) throws SQLException {
        this.keys = keys;
        this.fsync = fsync;
        this.storeName = storeName;
        this.maxBatch = maxBatch;
        this.watches = watches;
        this.batchSizes = batchSizes;
        this.committedVersion = keys.commitVersion();
    }

    void submit(CommitRequest<?> request) {
        if (closing) {
            throw closed();
        }
        queue.add(request);
    }

    int queued() {
        return queue.size();
    }

    /** Stops taking work; the loop ends after the batch under way, failing what is still queued. */
    void close() {
        closing = true;
    }

    @Override
    public void run() {
        List<CommitRequest<?>> batch = new ArrayList<>(maxBatch);
        while (!closing) {
            try {
                CommitRequest<?> first = queue.poll(50, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                runBatch(batch);
            } catch (InterruptedException e) {
                closing = true;
            } catch (RuntimeException | Error e) {
                // A defect of the committer itself: fail the batch, keep serving.
                failAll(batch, new StoreException("the embedded store's committer failed", storeName, e));
            } finally {
                batch.clear();
            }
        }
        List<CommitRequest<?>> rest = new ArrayList<>();
        queue.drainTo(rest);
        failAll(rest, closed());
    }

    private StoreException closed() {
        return new StoreException("the embedded store is closed", storeName, null);
    }

    /** Batches committed with a sync of the log (durability {@code fsync}), since start. */
    long syncedBatches() {
        return syncedBatches.get();
    }

    private void runBatch(List<CommitRequest<?>> batch) {
        long version = committedVersion + 1;
        List<CommitRequest<?>> started = new ArrayList<>(batch.size());
        // A batch of deferrable commits only (leases, heartbeats) is written, not synced: the next
        // synced batch makes it durable with itself. One that must be synced waits for no other.
        boolean sync = fsync && batch.stream().anyMatch(request -> !request.deferSync);
        adds.clear();
        SQLException broken = begin(sync);
        for (CommitRequest<?> request : batch) {
            if (broken != null) {
                break;
            }
            if (!request.start()) {
                continue;
            }
            started.add(request);
            if (System.nanoTime() - request.deadlineNanos > 0) {
                request.outcome.completeExceptionally(
                        new RetryableStoreException(RetryableStoreException.Reason.TIMEOUT, storeName, null));
                continue;
            }
            broken = execute(request, stamp(version, started.size() - 1));
        }
        boolean wrote = started.stream().anyMatch(r -> r.succeeded && r.tx.wrote());
        if (broken == null) {
            broken = writeAdds();
        }
        if (broken == null) {
            broken = commit(wrote ? version : -1);
        }
        if (broken != null) {
            abort(batch, broken);
            return;
        }
        if (wrote) {
            committedVersion = version;
            if (sync) {
                syncedBatches.incrementAndGet();
            }
        }
        batchSizes.accept(started.size());
        acknowledge(started);
    }

    /** Runs one body under a savepoint; answers the SQLite failure that breaks the batch, if any. */
    private <T> SQLException execute(CommitRequest<T> request, Versionstamp stamp) {
        EmbeddedTransaction tx = new EmbeddedTransaction(keys, adds, storeName, stamp, request.deadlineNanos);
        request.tx = tx;
        try {
            keys.savepoint();
        } catch (SQLException e) {
            return e;
        }
        Throwable failure = null;
        try {
            request.value = request.body.apply(tx);
        } catch (Throwable t) {
            failure = t;
        }
        if (tx.storeFailure() != null) {
            return tx.storeFailure();
        }
        try {
            if (failure == null) {
                keys.releaseSavepoint();
                adds.release();
                armWatches(tx);
                request.succeeded = true;
            } else {
                keys.rollbackToSavepoint();
                adds.rollback();
                StoreException notCommitted = new StoreException("the transaction was not committed", storeName, failure);
                tx.watches().forEach(w -> w.future().completeExceptionally(notCommitted));
                tx.failVersionstamp(notCommitted);
                request.outcome.completeExceptionally(failure);
            }
        } catch (SQLException e) {
            return e;
        }
        return null;
    }

    private void armWatches(EmbeddedTransaction tx) throws SQLException {
        for (WatchRegistry.Watch watch : tx.watches()) {
            watches.arm(watch, tx.current(watch.key()));
        }
    }

    private SQLException begin(boolean sync) {
        try {
            if (fsync) {
                keys.syncCommits(sync);
            }
            keys.begin();
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    private SQLException writeAdds() {
        try {
            adds.writeTo(keys);
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    private SQLException commit(long version) {
        try {
            if (version > 0) {
                keys.setCommitVersion(version);
            }
            keys.commit();
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    private void abort(List<CommitRequest<?>> batch, SQLException cause) {
        try {
            keys.rollbackAndRecover();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
        RetryableStoreException failure =
                new RetryableStoreException(RetryableStoreException.Reason.TRANSIENT, storeName, cause);
        for (CommitRequest<?> request : batch) {
            if (request.tx != null) {
                request.tx.watches().forEach(w -> watches.disarm(w, failure));
                request.tx.failVersionstamp(failure);
            }
            // A body that failed on its own keeps its own failure (a completed future ignores this):
            // it changed nothing either way.
            request.outcome.completeExceptionally(failure);
        }
    }

    private void acknowledge(List<CommitRequest<?>> started) {
        List<ByteBuffer> touched = new ArrayList<>();
        List<byte[][]> cleared = new ArrayList<>();
        for (CommitRequest<?> request : started) {
            if (!request.succeeded) {
                continue;
            }
            EmbeddedTransaction tx = request.tx;
            tx.settleVersionstamp();
            if (tx.wrote()) {
                touched.addAll(tx.touchedKeys());
                cleared.addAll(tx.clearedRanges());
            }
            complete(request);
        }
        if (!watches.isEmpty() && (!touched.isEmpty() || !cleared.isEmpty())) {
            watches.fireChanged(watches.watchedAmong(touched, cleared), committedValue());
        }
    }

    private Function<byte[], byte[]> committedValue() {
        return key -> {
            try {
                return keys.get(key);
            } catch (SQLException e) {
                // Unknown means changed: a spurious wake-up is harmless, a missed one is not.
                return new byte[] {(byte) 0xFF, 0x00};
            }
        };
    }

    private static <T> void complete(CommitRequest<T> request) {
        request.outcome.complete(request.value);
    }

    private static void failAll(List<CommitRequest<?>> requests, RuntimeException why) {
        for (CommitRequest<?> request : requests) {
            request.outcome.completeExceptionally(why);
        }
    }

    /** Eight bytes of commit version, two of the transaction's place in the batch. */
    private static Versionstamp stamp(long version, int index) {
        byte[] bytes = ByteBuffer.allocate(10).putLong(version).putShort((short) index).array();
        return Versionstamp.complete(bytes);
    }
}
