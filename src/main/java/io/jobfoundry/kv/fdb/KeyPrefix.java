package io.jobfoundry.kv.fdb;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * The subspace a store owns. Every key gains the prefix on its way to FoundationDB and loses it on
 * its way back; since both bounds of a range are prefixed, every range read and clear stays inside
 * the subspace without further checks.
 */
final class KeyPrefix {

    private static final int OFFSET_BYTES = Integer.BYTES;

    private final byte[] prefix;

    KeyPrefix(byte[] prefix) {
        this.prefix = prefix.clone();
    }

    /** The prefix's length: what every key gains on its way to FoundationDB. */
    int length() {
        return prefix.length;
    }

    byte[] add(byte[] key) {
        Objects.requireNonNull(key, "key");
        byte[] stored = Arrays.copyOf(prefix, prefix.length + key.length);
        System.arraycopy(key, 0, stored, prefix.length, key.length);
        return stored;
    }

    byte[] strip(byte[] stored) {
        return Arrays.copyOfRange(stored, prefix.length, stored.length);
    }

    /**
     * The parameter of FDB's SET_VERSIONSTAMPED_KEY: the prefixed key followed by the position of the
     * placeholder in it, shifted by the prefix, as the four little-endian bytes API 520+ expects.
     */
    byte[] versionstampedKey(byte[] key, int offset) {
        return withOffset(add(key), prefix.length + offset);
    }

    /** The parameter of FDB's SET_VERSIONSTAMPED_VALUE: the value followed by the placeholder's offset. */
    static byte[] versionstampedValue(byte[] value, int offset) {
        return withOffset(value, offset);
    }

    private static byte[] withOffset(byte[] bytes, int offset) {
        return ByteBuffer.allocate(bytes.length + OFFSET_BYTES)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(bytes)
                .putInt(offset)
                .array();
    }
}
