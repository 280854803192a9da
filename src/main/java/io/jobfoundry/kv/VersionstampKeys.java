package io.jobfoundry.kv;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import java.io.ByteArrayOutputStream;

/**
 * Builds tuple-encoded keys that hold an incomplete versionstamp.
 *
 * <p>{@code Tuple.packWithVersionstamp} asks the native FDB client for its API version, which the
 * embedded store must never load; the tuple encoding itself is simple, so the template is built
 * here: the prefix tuple, the versionstamp code {@code 0x33}, ten placeholder bytes, the two-byte
 * user version, then the suffix tuple. After commit the key decodes with {@link Tuple#fromBytes}
 * into a complete {@link Versionstamp}.
 */
public final class VersionstampKeys {

    private static final byte VERSIONSTAMP_CODE = 0x33;
    private static final int TRANSACTION_VERSION_BYTES = 10;

    private VersionstampKeys() {
    }

    /** A key with a placeholder at {@code offset}, for {@link KvTransaction#setVersionstampedKey}. */
    public record Template(byte[] key, int offset) {
    }

    public static Template key(Tuple prefix, int userVersion, Tuple suffix) {
        if (userVersion < 0 || userVersion > 0xFFFF) {
            throw new IllegalArgumentException("user version must fit in two bytes: " + userVersion);
        }
        byte[] head = prefix.pack();
        byte[] tail = suffix.pack();
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length + 13 + tail.length);
        out.writeBytes(head);
        out.write(VERSIONSTAMP_CODE);
        int offset = out.size();
        out.writeBytes(new byte[TRANSACTION_VERSION_BYTES]);
        out.write((userVersion >>> 8) & 0xFF);
        out.write(userVersion & 0xFF);
        out.writeBytes(tail);
        return new Template(out.toByteArray(), offset);
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
