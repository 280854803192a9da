package io.jobfoundry.kv;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads of a transaction. Keys are compared as unsigned bytes, as FoundationDB does.
 *
 * <p>Reads through {@link KvTransaction} add read conflicts: if another transaction commits a
 * change to what was read before this one commits, this one fails with a retryable conflict.
 * Reads through {@link KvTransaction#snapshot()} add none (FDB snapshot reads), for scans whose
 * result is only a hint; take the key you act on with {@link KvTransaction#addReadConflictKey}.
 */
public interface KvReads {

    /** The value of {@code key}, or {@code null}; sees this transaction's own writes. */
    byte[] get(byte[] key);

    /**
     * The values of {@code keys}, in their order ({@code null} for a key not there): {@link #get} of
     * each, but a store that reads over the network (FoundationDB) asks for them all at once rather
     * than waiting for each answer before the next.
     */
    default List<byte[]> getAll(List<byte[]> keys) {
        List<byte[]> values = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            values.add(get(key));
        }
        return values;
    }

    /**
     * Entries with {@code begin <= key < end}, ascending (or descending when {@code reverse}),
     * at most {@code limit} of them ({@code limit <= 0} means no limit). The result merges this
     * transaction's own uncommitted sets and clears.
     */
    List<KeyValue> getRange(byte[] begin, byte[] end, int limit, boolean reverse);

    default List<KeyValue> getRange(byte[] begin, byte[] end, int limit) {
        return getRange(begin, end, limit, false);
    }
}
