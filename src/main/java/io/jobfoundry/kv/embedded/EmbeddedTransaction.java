package io.jobfoundry.kv.embedded;

import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.StoreLimitException;
import io.jobfoundry.kv.VersionstampKeys;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One attempt, executed on the committer thread inside the batch's SQLite transaction and, once it
 * writes, under a savepoint of its own. Writes go straight to SQLite, so reads see them
 * (read-your-writes and range merging come for free) and a failed body is undone by rolling back
 * to its savepoint. A body that only reads (a {@code GET}, an accept that finds nothing) takes
 * none: there is nothing to undo.
 * Transactions run one after another, so every read is serializable and snapshot reads and
 * explicit read conflicts need nothing more.
 *
 * <p>The versionstamp is known before the body runs (the batch's commit version and this
 * transaction's place in it), so versionstamped keys are written complete; they become visible to
 * others, like everything else, only when the batch commits. This transaction may not read them
 * back before then, as on FoundationDB ({@link UnreadableWrites}). So a key whose value it
 * versionstamped is written only once the body is done ({@link #writeDeferred}), with the last
 * value set there (kept by {@link UnreadableWrites}): an accept of sixteen jobs sets its type's latest activity sixteen times.
 */
final class EmbeddedTransaction implements KvTransaction {

    /** Values up to this size are remembered, so that setting one again costs no statement. */
    private static final int REMEMBERED_VALUE_BYTES = 64;

    private final SqliteKeySpace keys;
    private final BatchAdds adds;
    private final String storeName;
    private final Versionstamp stamp;
    private final long deadlineNanos;
    /** Made when the body asks for it, which the engine never does: most transactions never need one. */
    private CompletableFuture<Versionstamp> versionstamp;
    /**
     * The keys this transaction wrote (for the watches), each with the value it last set there if
     * that value is small, else null; a clear or an add of the key forgets the value.
     */
    private final Map<ByteBuffer, byte[]> touched = new HashMap<>();
    private final List<byte[][]> clearedRanges = new ArrayList<>();
    private final List<WatchRegistry.Watch> watches = new ArrayList<>();
    private final UnreadableWrites unreadable;
    private long bytesWritten;
    private boolean wrote;
    /** Whether the savepoint is taken: just before the first statement that writes. */
    private boolean savepoint;
    private SQLException storeFailure;

    EmbeddedTransaction(SqliteKeySpace keys, BatchAdds adds, String storeName, Versionstamp stamp, long deadlineNanos) {
        this.keys = keys;
        this.adds = adds;
        this.storeName = storeName;
        this.stamp = stamp;
        this.deadlineNanos = deadlineNanos;
        this.unreadable = new UnreadableWrites(storeName);
    }

    @Override
    public byte[] get(byte[] key) {
        checkDeadline();
        unreadable.checkKey(key);
        try {
            return current(key);
        } catch (SQLException e) {
            throw storeFailed(e);
        }
    }

    /** The key's value as this transaction sees it, with the batch's pending adds applied. */
    byte[] current(byte[] key) throws SQLException {
        byte[] waiting = unreadable.valueOf(key);
        return adds.applied(key, waiting != null ? waiting : keys.get(key));
    }

    @Override
    public List<KeyValue> getRange(byte[] begin, byte[] end, int limit, boolean reverse) {
        checkDeadline();
        if (Arrays.compareUnsigned(begin, end) >= 0) {
            return List.of();
        }
        unreadable.checkRange(begin, end);
        try {
            return adds.merge(keys.range(begin, end, limit, reverse), begin, end, limit, reverse);
        } catch (SQLException e) {
            throw storeFailed(e);
        }
    }

    @Override
    public KvReads snapshot() {
        // Serialized execution: a snapshot read cannot observe anything a tracked read would not.
        return this;
    }

    @Override
    public void set(byte[] key, byte[] value) {
        byte[] last = noteSet(key, value);
        if (unreadable.setIfMarked(key, value)) {
            return; // written once the body is done (writeDeferred)
        }
        if (last != null && Arrays.equals(last, value)) {
            // Set to this value by this transaction already, and neither cleared nor added to
            // since: SQLite holds it. A batch of creates sets its group's marker for every job.
            return;
        }
        try {
            beforeWrite();
            keys.put(key, value);
        } catch (SQLException e) {
            throw storeFailed(e); // the transaction fails: what touched holds no longer matters
        }
        // Not unreadable.known(key): FoundationDB keeps a versionstamped value's key unreadable through a set.
    }

    @Override
    public void clear(byte[] key) {
        checkWrite(key, null);
        try {
            beforeWrite();
            keys.delete(key);
        } catch (SQLException e) {
            throw storeFailed(e);
        }
        adds.forget(key);
        unreadable.known(key);
        touched.put(ByteBuffer.wrap(key.clone()), null);
    }

    @Override
    public void clearRange(byte[] begin, byte[] end) {
        checkDeadline();
        if (Arrays.compareUnsigned(begin, end) >= 0) {
            return; // no key lies in it (KvTransaction#clearRange)
        }
        checkWrite(begin, null);
        checkWrite(end, null);
        try {
            beforeWrite();
            keys.deleteRange(begin, end);
        } catch (SQLException e) {
            throw storeFailed(e);
        }
        adds.forgetRange(begin, end);
        unreadable.knownRange(begin, end);
        touched.replaceAll((written, last) -> null);
        clearedRanges.add(new byte[][] {begin.clone(), end.clone()});
    }

    /** Summed with the batch's other adds to the key and written once, when the batch ends. */
    @Override
    public void add(byte[] key, long delta) {
        checkWrite(key, new byte[Long.BYTES]);
        adds.add(key, delta);
        touched.put(ByteBuffer.wrap(key.clone()), null);
    }

    @Override
    public void addReadConflictKey(byte[] key) {
        // Transactions are serialized: there is nothing to conflict with.
        checkDeadline();
    }

    @Override
    public void setVersionstampedKey(byte[] key, int offset, byte[] value) {
        VersionstampKeys.checkOffset(key, offset);
        checkLimits(key.length + VERSIONSTAMP_OFFSET_BYTES, value.length);
        byte[] complete = key.clone();
        VersionstampKeys.fill(complete, offset, stamp);
        set(complete, value);
        unreadable.keysOf(key, offset, stamp);
    }

    @Override
    public void setVersionstampedValue(byte[] key, byte[] value, int offset) {
        VersionstampKeys.checkOffset(value, offset);
        checkLimits(key.length, value.length + VERSIONSTAMP_OFFSET_BYTES);
        byte[] complete = value.clone();
        VersionstampKeys.fill(complete, offset, stamp);
        noteSet(key, complete);
        unreadable.valueAt(key, complete); // written once the body is done (writeDeferred)
    }

    /**
     * What every set of {@code key} does before it is written: the limits, the key and small value
     * remembered, the batch's pending adds to the key replaced. Answers the value this transaction
     * set there before, if it remembered one.
     */
    private byte[] noteSet(byte[] key, byte[] value) {
        checkWrite(key, value);
        byte[] last = touched.put(ByteBuffer.wrap(key.clone()),
                value.length <= REMEMBERED_VALUE_BYTES ? value.clone() : null);
        adds.forget(key);
        return last;
    }

    /**
     * Writes the values set at keys this transaction made unreadable, each once: the body is done.
     * A failure is the transaction's, as a failed write in the body would have been.
     */
    void writeDeferred() {
        try {
            for (Map.Entry<ByteBuffer, byte[]> write : unreadable.values().entrySet()) {
                beforeWrite();
                keys.put(write.getKey().array(), write.getValue());
            }
        } catch (SQLException e) {
            storeFailed(e);
        }
    }

    @Override
    public CompletableFuture<Versionstamp> versionstamp() {
        if (versionstamp == null) {
            versionstamp = new CompletableFuture<>();
        }
        return versionstamp;
    }

    /** Once committed: the versionstamp, if the body asked for it; one that wrote nothing has none. */
    void settleVersionstamp() {
        if (versionstamp != null) {
            if (wrote) {
                versionstamp.complete(stamp);
            } else {
                versionstamp.completeExceptionally(new StoreException(
                        "a transaction that wrote nothing has no versionstamp", storeName, null));
            }
        }
    }

    /** Not committed: the versionstamp, if the body asked for it, fails as the transaction did. */
    void failVersionstamp(Throwable failure) {
        if (versionstamp != null) {
            versionstamp.completeExceptionally(failure);
        }
    }

    @Override
    public CompletableFuture<Void> watch(byte[] key) {
        checkDeadline();
        WatchRegistry.Watch watch;
        try {
            watch = new WatchRegistry.Watch(key.clone(), current(key));
        } catch (SQLException e) {
            throw storeFailed(e);
        }
        watches.add(watch);
        return watch.future();
    }

    /** Takes the savepoint a failed body is rolled back to, if this is the body's first write to SQLite. */
    private void beforeWrite() throws SQLException {
        if (!savepoint) {
            keys.savepoint();
            savepoint = true;
        }
    }

    /** Whether the body wrote to SQLite, under a savepoint the committer must release or roll back to. */
    boolean hasSavepoint() {
        return savepoint;
    }

    private void checkWrite(byte[] key, byte[] value) {
        checkDeadline();
        checkLimits(key.length, value == null ? 0 : value.length);
        bytesWritten += key.length + (value == null ? 0 : value.length);
        if (bytesWritten > MAX_TRANSACTION_BYTES) {
            throw new StoreLimitException(StoreLimitException.Limit.TRANSACTION_SIZE, bytesWritten, storeName);
        }
        wrote = true;
    }

    /** The SPI's limits, on sizes as FoundationDB counts them (a versionstamped key or value with its offset). */
    private void checkLimits(int keyBytes, int valueBytes) {
        if (keyBytes > MAX_KEY_BYTES) {
            throw new StoreLimitException(StoreLimitException.Limit.KEY_SIZE, keyBytes, storeName);
        }
        if (valueBytes > MAX_VALUE_BYTES) {
            throw new StoreLimitException(StoreLimitException.Limit.VALUE_SIZE, valueBytes, storeName);
        }
    }

    private void checkDeadline() {
        if (System.nanoTime() - deadlineNanos > 0) {
            throw new RetryableStoreException(RetryableStoreException.Reason.TIMEOUT, storeName, null);
        }
    }

    /**
     * A SQLite failure leaves the batch's state unknown: it is remembered here even if the body
     * swallows the exception, and the committer then fails the whole batch.
     */
    private RetryableStoreException storeFailed(SQLException e) {
        if (storeFailure == null) {
            storeFailure = e;
        }
        return new RetryableStoreException(SqliteKeySpace.reasonOf(e), storeName, e);
    }

    SQLException storeFailure() {
        return storeFailure;
    }

    boolean wrote() {
        return wrote;
    }

    Set<ByteBuffer> touchedKeys() {
        return touched.keySet();
    }

    List<byte[][]> clearedRanges() {
        return clearedRanges;
    }

    List<WatchRegistry.Watch> watches() {
        return watches;
    }
}
