package io.jobfoundry.kv.embedded;

import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.StoreClosedException;
import io.jobfoundry.kv.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Group commit, the way FoundationDB batches commits: the committer thread takes every transaction
 * waiting, runs their bodies back to back inside one SQLite transaction (each, once it writes,
 * under its own savepoint, so a body that throws is undone alone) and commits the whole batch at
 * once. If the batch cannot be written, every transaction in it fails retryably and none is
 * half-applied.
 * Atomic adds are summed per key over the batch and written once before the commit
 * ({@link BatchAdds}). The commit writes the log without waiting for the disk; the
 * {@link Acknowledger} syncs it and answers the batch, while this thread runs the next one.
 */
final class GroupCommitter implements Runnable {

    private final SqliteKeySpace keys;
    private final String storeName;
    private final int maxBatch;
    private final WatchRegistry watches;
    private final LongConsumer batchSizes;
    private final boolean fsync;
    private final Acknowledger acknowledger;
    private final StoreFiles files;
    private final BlockingQueue<CommitRequest<?>> queue = new LinkedBlockingQueue<>();
    private final BatchAdds adds = new BatchAdds();
    private long committedVersion;
    /** The thread running the loop; set before the first batch. */
    private volatile Thread thread;
    /** Whether a transaction body is running now; read and written only by {@link #thread}. */
    private boolean inBody;
    private volatile boolean closing;
    /** Why the store stopped taking work before it was closed: its log could not be synced, or its file written. */
    private volatile StoreException broken;

    /** With {@code log} {@link LogSync#NONE}, commits are acknowledged without a sync (durability os). */
    GroupCommitter(SqliteKeySpace keys, StoreFiles files, String storeName, int maxBatch, WatchRegistry watches,
            LongConsumer batchSizes, LogSync log) throws SQLException {
        this.keys = keys;
        this.files = files;
        this.fsync = log != LogSync.NONE;
        this.acknowledger = new Acknowledger(log, watches, storeName, this::logSyncFailed);
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
        // The loop may have ended, and drained the queue, between the check and the add.
        if (closing && queue.remove(request)) {
            throw closed();
        }
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
        thread = Thread.currentThread();
        acknowledger.start();
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
        try {
            acknowledger.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private StoreException closed() {
        StoreException why = broken;
        return why != null ? why : new StoreClosedException("the embedded store is closed", storeName);
    }

    private void logSyncFailed(IOException cause) {
        broken = new StoreException("the embedded store could not sync its log to disk (" + cause.getMessage()
                + "); it takes no more work: restart the service to recover from what the disk holds",
                storeName, cause);
        closing = true;
    }

    private void stop(SQLException lost) {
        broken = new StoreException("the embedded store can no longer write or read its file (" + lost.getMessage()
                + "); it takes no more work: restart the service", storeName, lost);
        closing = true;
    }

    /**
     * The files checked from another thread (the liveness probe's), for a store that takes no
     * work: found moved, the store stops as if a batch had found it, the batch under way excepted.
     */
    void checkFiles() {
        if (broken == null) {
            SQLException moved = files.check();
            if (moved != null) {
                stop(moved);
            }
        }
    }

    /** Syncs of the log (durability {@code fsync}) since start. */
    long syncs() {
        return acknowledger.syncs();
    }

    /**
     * Whether a failed sync (what SQLite's page cache holds may not be on disk) or a file lost to
     * the connection ({@link SqliteKeySpace#lost}) stopped the store.
     */
    boolean broken() {
        return whyBroken() != null;
    }

    /** What stopped the store, once something has. */
    StoreException whyBroken() {
        return broken;
    }

    /**
     * Whether the calling thread answers commits (this loop's, or the acknowledger's): a callback
     * there must not wait for another transaction, which only that thread could answer.
     */
    boolean answersOnThisThread() {
        return Thread.currentThread() == thread || acknowledger.onItsThread();
    }

    /**
     * Whether the calling thread is running a transaction body: a body must not start another
     * transaction, which a retry of the body would start again. A callback this thread runs for a
     * commit's answer may, as one on the acknowledger may.
     */
    boolean inBodyOnThisThread() {
        return Thread.currentThread() == thread && inBody;
    }

    private void runBatch(List<CommitRequest<?>> batch) {
        long version = committedVersion + 1;
        List<CommitRequest<?>> started = new ArrayList<>(batch.size());
        adds.clear();
        SQLException broken = begin();
        CommitRequest<?> failedIn = null;
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
            if (broken != null) {
                failedIn = request;
            }
        }
        List<CommitRequest<?>> writers = started.stream().filter(r -> r.succeeded && r.tx.wrote()).toList();
        boolean wrote = !writers.isEmpty();
        if (broken == null) {
            broken = writeAdds();
        }
        if (broken == null && wrote) {
            broken = files.checkDue();
        }
        if (broken == null) {
            broken = commit(wrote ? version : -1);
            failedIn = writers.size() == 1 ? writers.get(0) : null;
        }
        if (broken != null) {
            // Only a transaction that failed with no other one's writes before it in the batch
            // can be its own cause (the store was full before it, or it filled it): the others
            // may well pass alone, and are retried as any batch's innocents are.
            CommitRequest<?> suspect = failedIn;
            boolean ownCause = suspect != null
                    && writers.stream().noneMatch(w -> w != suspect && started.indexOf(w) < started.indexOf(suspect));
            abort(batch, broken, ownCause ? suspect : null);
            return;
        }
        if (wrote) {
            committedVersion = version;
        }
        batchSizes.accept(started.size());
        CommittedBatch committed = committed(started);
        acknowledger.committed(committed, answerInline(committed, started.size()));
    }

    /**
     * Whether this thread answers a batch of {@code size} transactions itself: a batch with nothing
     * to sync (reads, leases, heartbeats; every batch with durability os), for there is nothing to
     * wait for but the answers; and a lone commit (one transaction, nothing waiting), rather than
     * wake the acknowledger's thread for it. A larger batch to sync means concurrent clients, whose
     * next requests are likely on their way: syncing here would keep them waiting for the sync
     * before their batch could even start. (The acknowledger still takes the batch if one handed
     * to it before is not answered yet: answers keep their order.)
     */
    private boolean answerInline(CommittedBatch batch, int size) {
        return !batch.needsSync() || (size <= 1 && queue.isEmpty());
    }

    /**
     * What the acknowledger needs of a committed batch. A batch of deferrable commits only (leases,
     * heartbeats) needs no sync: the next synced batch makes it durable with itself. A watched key's
     * value is read now, while this thread still owns the connection.
     */
    private CommittedBatch committed(List<CommitRequest<?>> started) {
        List<CommitRequest<?>> answered = new ArrayList<>(started.size());
        List<Set<ByteBuffer>> touched = new ArrayList<>();
        List<byte[][]> cleared = new ArrayList<>();
        boolean needsSync = false;
        for (CommitRequest<?> request : started) {
            if (request.succeeded || request.failure != null) {
                answered.add(request);
            }
            if (request.succeeded && request.tx.wrote()) {
                touched.add(request.tx.touchedKeys());
                cleared.addAll(request.tx.clearedRanges());
                needsSync |= fsync && !request.deferSync;
            }
        }
        Map<ByteBuffer, byte[]> watchValues = new HashMap<>();
        if (!watches.isEmpty() && (!touched.isEmpty() || !cleared.isEmpty())) {
            for (byte[] key : watches.watchedAmong(touched, cleared)) {
                watchValues.put(ByteBuffer.wrap(key), committedValue(key));
            }
        }
        return new CommittedBatch(answered, needsSync, watchValues);
    }

    /**
     * Runs one body (under a savepoint once it writes: {@link EmbeddedTransaction}); answers the
     * SQLite failure that breaks the batch, if any.
     */
    private <T> SQLException execute(CommitRequest<T> request, Versionstamp stamp) {
        EmbeddedTransaction tx = new EmbeddedTransaction(keys, adds, storeName, stamp, request.deadlineNanos);
        request.tx = tx;
        Throwable failure = null;
        inBody = true;
        try {
            request.value = request.body.apply(tx);
        } catch (Throwable t) {
            failure = t;
        } finally {
            inBody = false;
        }
        if (failure == null && tx.storeFailure() == null) {
            tx.writeDeferred();
        }
        if (tx.storeFailure() != null) {
            return tx.storeFailure();
        }
        try {
            if (failure == null) {
                if (tx.hasSavepoint()) {
                    keys.releaseSavepoint();
                }
                adds.release();
                tx.watches().forEach(watches::arm);
                request.succeeded = true;
            } else {
                if (tx.hasSavepoint()) {
                    keys.rollbackToSavepoint();
                }
                adds.rollback();
                StoreException notCommitted = new StoreException("the transaction was not committed", storeName, failure);
                tx.watches().forEach(w -> w.future().completeExceptionally(notCommitted));
                tx.failVersionstamp(notCommitted);
                request.failure = failure;
            }
        } catch (SQLException e) {
            return e;
        }
        return null;
    }

    private SQLException begin() {
        try {
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

    /**
     * Rolls the batch back and fails its transactions retryably. {@code culprit}, if known, failed
     * for a reason of its own, with no other transaction's writes before it: it alone learns that
     * reason (a full store, say, which is tried again only a few times); the others only that
     * their batch failed.
     */
    private void abort(List<CommitRequest<?>> batch, SQLException cause, CommitRequest<?> culprit) {
        try {
            keys.rollbackAndRecover();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
        if (SqliteKeySpace.lost(cause)) {
            // Nothing of the batch committed; no later batch would either. Stop, so that the
            // liveness probe asks for the restart that opens the file afresh.
            stop(cause);
        }
        StoreException lost = broken;
        RetryableStoreException batchFailed =
                new RetryableStoreException(RetryableStoreException.Reason.TRANSIENT, storeName, cause);
        RetryableStoreException ownFailure =
                new RetryableStoreException(SqliteKeySpace.reasonOf(cause), storeName, cause);
        List<CommitRequest<?>> failedBodies = new ArrayList<>();
        for (CommitRequest<?> request : batch) {
            StoreException failure = lost != null ? lost : request == culprit ? ownFailure : batchFailed;
            if (request.tx != null) {
                request.tx.watches().forEach(w -> watches.disarm(w, failure));
                request.tx.failVersionstamp(failure);
            }
            if (request.failure != null) {
                // A body that failed on its own keeps its own failure (it changed nothing either
                // way), answered in turn like any other.
                failedBodies.add(request);
            } else {
                request.outcome.completeExceptionally(failure);
            }
        }
        if (!failedBodies.isEmpty()) {
            CommittedBatch failed = CommittedBatch.failedBodies(failedBodies);
            acknowledger.committed(failed, answerInline(failed, batch.size()));
        }
    }

    private byte[] committedValue(byte[] key) {
        try {
            return keys.get(key);
        } catch (SQLException e) {
            // Unknown means changed: a spurious wake-up is harmless, a missed one is not.
            return new byte[] {(byte) 0xFF, 0x00};
        }
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
