package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.MutationType;
import com.apple.foundationdb.ReadTransaction;
import com.apple.foundationdb.Transaction;
import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.Futures;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.VersionstampKeys;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@link KvTransaction} over one FoundationDB transaction. Keys pass through the store's
 * {@link KeyPrefix}; every failure of an FDB call leaves through {@link FdbErrors}, at the call, so
 * the body sees the same exceptions from every backend.
 */
final class FdbTransaction implements KvTransaction {

    private final Transaction tr;
    private final KeyPrefix keys;
    private final FdbErrors errors;
    private final WriteSizes writes;
    private final Reads reads;
    private Reads snapshot;

    FdbTransaction(Transaction tr, KeyPrefix keys, FdbErrors errors, WriteSizes writes) {
        this.tr = tr;
        this.keys = keys;
        this.errors = errors;
        this.writes = writes;
        this.reads = new Reads(tr);
    }

    @Override
    public byte[] get(byte[] key) {
        return reads.get(key);
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        return reads.getAll(keys);
    }

    @Override
    public List<KeyValue> getRange(byte[] begin, byte[] end, int limit, boolean reverse) {
        return reads.getRange(begin, end, limit, reverse);
    }

    @Override
    public KvReads snapshot() {
        if (snapshot == null) {
            snapshot = new Reads(tr.snapshot());
        }
        return snapshot;
    }

    @Override
    public void set(byte[] key, byte[] value) {
        byte[] stored = keys.add(key);
        writes.write(key.length, value.length);
        perform(() -> tr.set(stored, value));
    }

    @Override
    public void clear(byte[] key) {
        byte[] stored = keys.add(key);
        writes.clear(key.length);
        perform(() -> tr.clear(stored));
    }

    @Override
    public void clearRange(byte[] begin, byte[] end) {
        if (Arrays.compareUnsigned(begin, end) >= 0) {
            // No key lies in an empty or inverted range; FDB would fail the commit with
            // inverted_range instead, which the SPI's "every key with begin <= key < end" does not ask.
            return;
        }
        byte[] storedBegin = keys.add(begin);
        byte[] storedEnd = keys.add(end);
        writes.clear(begin.length);
        writes.clear(end.length);
        perform(() -> tr.clear(storedBegin, storedEnd));
    }

    @Override
    public void add(byte[] key, long delta) {
        byte[] stored = keys.add(key);
        byte[] param = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(delta).array();
        writes.write(key.length, param.length);
        perform(() -> tr.mutate(MutationType.ADD, stored, param));
    }

    @Override
    public void addReadConflictKey(byte[] key) {
        byte[] stored = keys.add(key);
        perform(() -> tr.addReadConflictKey(stored));
    }

    @Override
    public void setVersionstampedKey(byte[] key, int offset, byte[] value) {
        VersionstampKeys.checkOffset(key, offset);
        byte[] param = keys.versionstampedKey(key, offset);
        writes.write(key.length + VERSIONSTAMP_OFFSET_BYTES, value.length);
        perform(() -> tr.mutate(MutationType.SET_VERSIONSTAMPED_KEY, param, value));
    }

    @Override
    public void setVersionstampedValue(byte[] key, byte[] value, int offset) {
        VersionstampKeys.checkOffset(value, offset);
        byte[] stored = keys.add(key);
        byte[] param = KeyPrefix.versionstampedValue(value, offset);
        writes.write(key.length, param.length);
        perform(() -> tr.mutate(MutationType.SET_VERSIONSTAMPED_VALUE, stored, param));
    }

    /** FDB's getVersionstamp: ten bytes after commit; asked before commit, as FDB requires. */
    @Override
    public CompletableFuture<Versionstamp> versionstamp() {
        return bridge(call(tr::getVersionstamp), Versionstamp::complete);
    }

    /**
     * FDB's watch, which outlives the transaction: FDB arms it when the commit succeeds and fails it
     * with the commit's error (or transaction_cancelled when the attempt is abandoned) otherwise.
     */
    @Override
    public CompletableFuture<Void> watch(byte[] key) {
        byte[] stored = keys.add(key);
        return bridge(call(() -> tr.watch(stored)), fired -> null);
    }

    void commit() {
        try {
            tr.commit().join();
        } catch (RuntimeException e) {
            throw errors.mapCommit(e, writes);
        }
    }

    /**
     * Our view of an FDB future: its failure mapped, and cancelling ours cancels FDB's, which is how
     * a watch is released (FDB allows a bounded number per client).
     */
    private <S, T> CompletableFuture<T> bridge(CompletableFuture<S> source, Function<S, T> convert) {
        CompletableFuture<T> result = Futures.following(source);
        source.handle((value, failure) -> {
            try {
                if (failure == null) {
                    result.complete(convert.apply(value));
                } else {
                    result.completeExceptionally(errors.map(failure, writes));
                }
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
            return null;
        });
        return result;
    }

    private void perform(Runnable op) {
        try {
            op.run();
        } catch (RuntimeException e) {
            throw errors.map(e, writes);
        }
    }

    private <T> T call(Supplier<T> op) {
        try {
            return op.get();
        } catch (RuntimeException e) {
            throw errors.map(e, writes);
        }
    }

    private <T> T await(Supplier<CompletableFuture<T>> op) {
        return call(() -> op.get().join());
    }

    /** Reads through FDB's transaction (adding read conflicts) or through its snapshot view. */
    private final class Reads implements KvReads {

        private final ReadTransaction reader;

        Reads(ReadTransaction reader) {
            this.reader = reader;
        }

        @Override
        public byte[] get(byte[] key) {
            byte[] stored = keys.add(key);
            return await(() -> reader.get(stored));
        }

        /** Every read issued before any is awaited: one round trip's wait for all of them. */
        @Override
        public List<byte[]> getAll(List<byte[]> wanted) {
            return await(() -> {
                List<CompletableFuture<byte[]>> pending = new ArrayList<>(wanted.size());
                for (byte[] key : wanted) {
                    pending.add(reader.get(keys.add(key)));
                }
                return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                        .thenApply(all -> pending.stream().map(CompletableFuture::join).toList());
            });
        }

        @Override
        public List<KeyValue> getRange(byte[] begin, byte[] end, int limit, boolean reverse) {
            byte[] storedBegin = keys.add(begin);
            byte[] storedEnd = keys.add(end);
            int rows = limit <= 0 ? ReadTransaction.ROW_LIMIT_UNLIMITED : limit;
            List<com.apple.foundationdb.KeyValue> found =
                    await(() -> reader.getRange(storedBegin, storedEnd, rows, reverse).asList());
            List<KeyValue> result = new ArrayList<>(found.size());
            for (com.apple.foundationdb.KeyValue entry : found) {
                result.add(new KeyValue(keys.strip(entry.getKey()), entry.getValue()));
            }
            return result;
        }
    }
}
