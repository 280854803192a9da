package io.jobfoundry.kv.embedded;

import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.StoreException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a transaction wrote with its versionstamp, which it may not read back before it commits.
 * FoundationDB knows neither such a key nor such a value until the commit, and fails the read with
 * accessed_unreadable (1036). The embedded store knows both at once; it refuses the same reads, so
 * that no engine code comes to rely on what only the embedded store could answer.
 *
 * <p>Like FoundationDB, it marks a versionstamped value's key until the transaction clears that key
 * again (a later set or add leaves it unreadable: checked against FoundationDB 7.3.79 by
 * KvStoreContract), and for a versionstamped key every key its template could become at this
 * transaction's version or later, for the rest of the transaction. A range read is refused if it
 * covers any of these, where FoundationDB refuses it only once it reaches one: a read with a limit
 * may be refused here and answered there, never the other way round.
 *
 * <p>Every read of the embedded store checks here, and almost no transaction writes anything
 * versionstamped before it reads: the marks are allocated with the first such write, and until
 * then a check is one null test.
 *
 * <p>Since nothing can read a marked value's key, it also keeps the value last set there, which
 * the transaction writes only once its body is done ({@link EmbeddedTransaction#writeDeferred}):
 * an accept of sixteen jobs sets its type's latest activity sixteen times, and one write is enough.
 */
final class UnreadableWrites {

    private static final int STAMP_BYTES = 10;

    private final String store;
    /** Keys whose value is versionstamped, each with the value last set there; null until one is set. */
    private Map<ByteBuffer, byte[]> values;
    /** Ranges [begin, end) a versionstamped key may land in; null until one is set. */
    private List<byte[][]> keyRanges;

    UnreadableWrites(String store) {
        this.store = store;
    }

    /** A versionstamped value, {@code value} with the stamp filled in, was set at {@code key}. */
    void valueAt(byte[] key, byte[] value) {
        if (values == null) {
            values = new HashMap<>();
        }
        values.put(ByteBuffer.wrap(key.clone()), value);
    }

    /**
     * A set of {@code key} to {@code value}: kept, and answered true, if the key's value is marked
     * (it stays marked, as on FoundationDB); the caller writes it otherwise.
     */
    boolean setIfMarked(byte[] key, byte[] value) {
        if (values == null || !values.containsKey(ByteBuffer.wrap(key))) {
            return false;
        }
        values.put(ByteBuffer.wrap(key.clone()), value.clone()); // the caller may reuse its array
        return true;
    }

    /** The value last set at a marked key, or null if the key is not marked. */
    byte[] valueOf(byte[] key) {
        return values == null ? null : values.get(ByteBuffer.wrap(key));
    }

    /** Every marked key with the value last set there, for writing once the body is done. */
    Map<ByteBuffer, byte[]> values() {
        return values == null ? Map.of() : values;
    }

    /**
     * A versionstamped key was set from {@code template}, its placeholder at {@code offset}, by a
     * transaction of {@code stamp}'s version: the keys the template makes with a stamp from that
     * version's first on, as FoundationDB's getVersionstampKeyRange marks them.
     */
    void keysOf(byte[] template, int offset, Versionstamp stamp) {
        byte[] begin = template.clone();
        System.arraycopy(stamp.getTransactionVersion(), 0, begin, offset, Long.BYTES);
        Arrays.fill(begin, offset + Long.BYTES, offset + STAMP_BYTES, (byte) 0);
        byte[] end = Arrays.copyOf(template, template.length + 1);
        Arrays.fill(end, offset, offset + STAMP_BYTES, (byte) 0xFF);
        if (keyRanges == null) {
            keyRanges = new ArrayList<>();
        }
        keyRanges.add(new byte[][] {begin, end});
    }

    /** {@code key} was cleared since: its value is known again. */
    void known(byte[] key) {
        if (values != null && !values.isEmpty()) {
            values.remove(ByteBuffer.wrap(key));
        }
    }

    /** Every key in {@code [begin, end)} was cleared since. */
    void knownRange(byte[] begin, byte[] end) {
        if (values == null) {
            return;
        }
        for (Iterator<ByteBuffer> it = values.keySet().iterator(); it.hasNext(); ) {
            byte[] key = it.next().array();
            if (Arrays.compareUnsigned(key, begin) >= 0 && Arrays.compareUnsigned(key, end) < 0) {
                it.remove();
            }
        }
    }

    void checkKey(byte[] key) {
        if (values == null && keyRanges == null) {
            return;
        }
        if (values != null && values.containsKey(ByteBuffer.wrap(key)) || overlapsKeyRange(key, null)) {
            throw refused();
        }
    }

    /** Checks a read of {@code [begin, end)}, a non-empty range. */
    void checkRange(byte[] begin, byte[] end) {
        if (values == null && keyRanges == null) {
            return;
        }
        for (ByteBuffer value : values == null ? Set.<ByteBuffer>of() : values.keySet()) {
            byte[] key = value.array();
            if (Arrays.compareUnsigned(key, begin) >= 0 && Arrays.compareUnsigned(key, end) < 0) {
                throw refused();
            }
        }
        if (overlapsKeyRange(begin, end)) {
            throw refused();
        }
    }

    /** Whether a marked key range holds {@code key} (with {@code end} null) or meets {@code [key, end)}. */
    private boolean overlapsKeyRange(byte[] key, byte[] end) {
        if (keyRanges == null) {
            return false;
        }
        for (byte[][] range : keyRanges) {
            boolean startsBeforeEnd = end == null
                    ? Arrays.compareUnsigned(range[0], key) <= 0
                    : Arrays.compareUnsigned(range[0], end) < 0;
            if (startsBeforeEnd && Arrays.compareUnsigned(key, range[1]) < 0) {
                return true;
            }
        }
        return false;
    }

    private StoreException refused() {
        return new StoreException(KvTransaction.UNREADABLE_VERSIONSTAMP, store, null);
    }
}
