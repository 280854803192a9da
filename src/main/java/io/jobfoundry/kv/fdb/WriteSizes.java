package io.jobfoundry.kv.fdb;

import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.StoreLimitException;
import io.jobfoundry.kv.StoreLimitException.Limit;

/**
 * What one attempt has written, counted as FoundationDB receives it: prefixed keys, and the
 * four-byte offset a versionstamped key or value carries. The limits apply to keys without the
 * prefix, as every store applies them ({@link KvTransaction#MAX_KEY_BYTES} leaves room for it).
 *
 * <p>FoundationDB refuses an oversized key or value only when the transaction commits, and without
 * saying which one; checking here fails the very call that broke a limit, with its size, as every
 * backend must. The total counts every write, as the embedded store does, where FDB counts the
 * mutations it sends (repeated writes of one key merged into one) and adds conflict ranges: a
 * transaction rewriting one key many times may fail here where FDB would take it, and one under
 * the total may still be refused at commit, which {@link FdbErrors} then reports.
 */
final class WriteSizes {

    private final String store;
    private final int prefixBytes;
    private long total;
    private int largestKey;
    private int largestValue;

    /** For an attempt whose keys have no prefix, or that only maps errors. */
    WriteSizes(String store) {
        this(store, 0);
    }

    WriteSizes(String store, int prefixBytes) {
        this.store = store;
        this.prefixBytes = prefixBytes;
    }

    /**
     * Records a set or atomic mutation, refusing it first if it breaks a limit. {@code keyBytes} is
     * the key as the caller gave it, without the prefix; both sizes include a versionstamp's offset.
     */
    void write(int keyBytes, int valueBytes) {
        if (keyBytes > KvTransaction.MAX_KEY_BYTES) {
            throw new StoreLimitException(Limit.KEY_SIZE, keyBytes, store);
        }
        if (valueBytes > KvTransaction.MAX_VALUE_BYTES) {
            throw new StoreLimitException(Limit.VALUE_SIZE, valueBytes, store);
        }
        grow((long) prefixBytes + keyBytes + valueBytes);
        largestKey = Math.max(largestKey, keyBytes);
        largestValue = Math.max(largestValue, valueBytes);
    }

    /**
     * Records a clear of a key of {@code keyBytes} without the prefix, once per key of a range. FDB
     * treats a key over the limit in a clear as one that cannot exist, so only the total is checked.
     */
    void clear(int keyBytes) {
        grow((long) prefixBytes + keyBytes);
    }

    long total() {
        return total;
    }

    int largestKey() {
        return largestKey;
    }

    int largestValue() {
        return largestValue;
    }

    private void grow(long bytes) {
        long grown = total + bytes;
        if (grown > KvTransaction.MAX_TRANSACTION_BYTES) {
            throw new StoreLimitException(Limit.TRANSACTION_SIZE, grown, store);
        }
        total = grown;
    }
}
