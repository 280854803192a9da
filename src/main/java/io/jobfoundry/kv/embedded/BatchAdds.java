package io.jobfoundry.kv.embedded;

import io.jobfoundry.kv.KeyValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.SQLException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The atomic adds of one batch, summed per key and written once, when the batch ends. The engine
 * adds to the same few counters and watch keys in nearly every transaction (seven adds per job);
 * written one by one, each is a read and a write of the same SQLite row, and they were the largest
 * single share of the committer's statements. Adds commute, so a batch may apply their sum instead.
 *
 * <p>Everything a transaction reads goes through {@link #applied} or {@link #merge}, so a pending
 * sum is visible exactly as if it had been written; a set, clear or clear-range of a key replaces
 * its pending sum, since the write comes after the adds. Each change is journaled, so a
 * transaction rolled back to its savepoint takes its changes to the sums back with it.
 * Used by the committer thread only.
 */
final class BatchAdds {

    private final NavigableMap<byte[], Long> sums = new TreeMap<>(Arrays::compareUnsigned);
    /** Key and its sum before each change of the transaction under way ({@code null}: none). */
    private final List<Map.Entry<byte[], Long>> journal = new ArrayList<>();

    void add(byte[] key, long delta) {
        Long before = sums.get(key);
        remember(key, before);
        sums.put(before == null ? key.clone() : key, before == null ? delta : before + delta);
    }

    /** A write of {@code key} replaces its pending sum. */
    void forget(byte[] key) {
        Long before = sums.remove(key);
        if (before != null) {
            remember(key, before);
        }
    }

    /** A clear of {@code [begin, end)} replaces the pending sums in it. */
    void forgetRange(byte[] begin, byte[] end) {
        Iterator<Map.Entry<byte[], Long>> within = sums.subMap(begin, true, end, false).entrySet().iterator();
        while (within.hasNext()) {
            Map.Entry<byte[], Long> entry = within.next();
            remember(entry.getKey(), entry.getValue());
            within.remove();
        }
    }

    /** The value of {@code key} with its pending sum applied to what SQLite holds. */
    byte[] applied(byte[] key, byte[] stored) {
        Long sum = sums.get(key);
        return sum == null ? stored : addLittleEndian(stored, sum);
    }

    /**
     * A range read of SQLite with the pending sums in {@code [begin, end)} applied, keys that only
     * adds have created included, in order and cut to {@code limit} (0: no limit). A pending key
     * missing from a full page of rows sorts beyond its last row and is cut with it; from a short
     * page it is missing from SQLite, so its value is its sum alone.
     */
    List<KeyValue> merge(List<KeyValue> stored, byte[] begin, byte[] end, int limit, boolean reverse) {
        NavigableMap<byte[], Long> within = sums.subMap(begin, true, end, false);
        if (within.isEmpty()) {
            return stored;
        }
        NavigableMap<byte[], byte[]> merged = new TreeMap<>(Arrays::compareUnsigned);
        for (KeyValue kv : stored) {
            merged.put(kv.key(), kv.value());
        }
        within.forEach((key, sum) -> merged.put(key, addLittleEndian(merged.get(key), sum)));
        List<KeyValue> result = new ArrayList<>(merged.size());
        for (Map.Entry<byte[], byte[]> entry : (reverse ? merged.descendingMap() : merged).entrySet()) {
            if (limit > 0 && result.size() == limit) {
                break;
            }
            result.add(new KeyValue(entry.getKey(), entry.getValue()));
        }
        return result;
    }

    /** The transaction under way is kept: its changes can no longer be taken back. */
    void release() {
        journal.clear();
    }

    /** The transaction under way is rolled back: the sums are as they were before it. */
    void rollback() {
        for (int i = journal.size() - 1; i >= 0; i--) {
            Map.Entry<byte[], Long> change = journal.get(i);
            if (change.getValue() == null) {
                sums.remove(change.getKey());
            } else {
                sums.put(change.getKey(), change.getValue());
            }
        }
        journal.clear();
    }

    /** Writes every pending sum, once per key, in the batch's SQLite transaction. */
    void writeTo(SqliteKeySpace keys) throws SQLException {
        for (Map.Entry<byte[], Long> entry : sums.entrySet()) {
            keys.put(entry.getKey(), addLittleEndian(keys.get(entry.getKey()), entry.getValue()));
        }
        sums.clear();
        journal.clear();
    }

    void clear() {
        sums.clear();
        journal.clear();
    }

    private void remember(byte[] key, Long before) {
        journal.add(new AbstractMap.SimpleImmutableEntry<>(key, before));
    }

    /**
     * FDB's ADD: the old value truncated or zero-extended to eight bytes, plus the operand. Sums
     * wrap modulo 2^64 as FDB's do, so adding a sum equals adding its parts one by one.
     */
    static byte[] addLittleEndian(byte[] current, long delta) {
        byte[] eight = new byte[Long.BYTES];
        if (current != null) {
            System.arraycopy(current, 0, eight, 0, Math.min(current.length, Long.BYTES));
        }
        long sum = ByteBuffer.wrap(eight).order(ByteOrder.LITTLE_ENDIAN).getLong() + delta;
        return ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(sum).array();
    }
}
