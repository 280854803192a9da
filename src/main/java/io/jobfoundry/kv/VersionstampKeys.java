package io.jobfoundry.kv;

import com.apple.foundationdb.tuple.Versionstamp;

/**
 * Keys and values that hold an incomplete versionstamp, as {@link TupleWriter#template()} writes
 * them: the versionstamp code {@code 0x33}, ten placeholder bytes the commit fills, and the two-byte
 * user version. ({@code Tuple.packWithVersionstamp} would ask the native FDB client for its API
 * version, which the embedded store must never load.) After the commit the bytes decode into a
 * complete {@link Versionstamp}.
 */
public final class VersionstampKeys {

    private static final int TRANSACTION_VERSION_BYTES = 10;

    private VersionstampKeys() {
    }

    /** A key with a placeholder at {@code offset}, for {@link KvTransaction#setVersionstampedKey}. */
    public record Template(byte[] key, int offset) {
    }

    /** Copies the ten transaction-version bytes of {@code stamp} into {@code target} at {@code offset}. */
    public static void fill(byte[] target, int offset, Versionstamp stamp) {
        System.arraycopy(stamp.getTransactionVersion(), 0, target, offset, TRANSACTION_VERSION_BYTES);
    }

    /** Checks that {@code offset} leaves room for a versionstamp inside {@code bytes}. */
    public static void checkOffset(byte[] bytes, int offset) {
        if (offset < 0 || offset + TRANSACTION_VERSION_BYTES > bytes.length) {
            throw new IllegalArgumentException("versionstamp offset " + offset + " outside " + bytes.length + " bytes");
        }
    }
}
