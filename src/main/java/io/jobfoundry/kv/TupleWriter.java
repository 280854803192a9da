package io.jobfoundry.kv;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import java.util.Arrays;

/**
 * Writes the FoundationDB tuple encoding, byte for byte what {@link Tuple#pack()} writes, for the
 * elements the engine stores: null, integers that fit a {@code long}, strings, byte strings,
 * booleans, versionstamps (complete, or one placeholder for the commit's) and nested tuples.
 *
 * <p>Every key and job record is a tuple, and {@code Tuple} is built for generality: each
 * construction copies its elements into a list and scans them with a stream for an incomplete
 * versionstamp, packing measures every string before it writes it, and reading back boxes every
 * element. On the bulk
 * workload that was a fifth of the service's CPU. This writer appends straight into one growing
 * array; {@link TupleReader} reads in place. Both are checked against {@code Tuple} on random
 * elements ({@code TupleCodecTest}), so keys written by either are the same keys, in the same order.
 */
public final class TupleWriter {

    static final byte NULL = 0x00;
    static final byte BYTES = 0x01;
    static final byte STRING = 0x02;
    static final byte NESTED = 0x05;
    static final byte INT_ZERO = 0x14;
    static final byte FALSE = 0x26;
    static final byte TRUE = 0x27;
    static final byte VERSIONSTAMP = 0x33;
    static final byte ESCAPE = (byte) 0xFF;

    private byte[] bytes;
    private int size;
    private int versionstampOffset = -1;

    private TupleWriter(int capacity) {
        bytes = new byte[capacity];
    }

    /** A tuple whose first element is {@code first}, as every key begins. */
    public static TupleWriter of(String first) {
        return new TupleWriter(32).add(first);
    }

    /** A tuple that begins with the elements of {@code packed}, a tuple this writer or {@code Tuple} packed. */
    public static TupleWriter after(byte[] packed) {
        TupleWriter writer = new TupleWriter(packed.length + 16);
        System.arraycopy(packed, 0, writer.bytes, 0, packed.length);
        writer.size = packed.length;
        return writer;
    }

    /** An empty tuple with room for {@code capacity} bytes before it grows. */
    public static TupleWriter withCapacity(int capacity) {
        return new TupleWriter(capacity);
    }

    public TupleWriter addNull() {
        ensure(1);
        bytes[size++] = NULL;
        return this;
    }

    /** A string element, or null. */
    public TupleWriter add(String value) {
        if (value == null) {
            return addNull();
        }
        int length = value.length();
        // Names, ids and tokens are ASCII: one byte a character, so only that much room is made
        // (reserving the worst case would grow the array of nearly every key that holds an id).
        ensure(length + 2);
        byte[] out = bytes;
        int at = size;
        out[at++] = STRING;
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c == 0 || c >= 0x80) {
                size = at;
                return addEscapedOrMultiByte(value, i);
            }
            out[at++] = (byte) c;
        }
        out[at++] = 0x00;
        size = at;
        return this;
    }

    /** The rest of a string from {@code from}, whose character there is a NUL or not ASCII. */
    private TupleWriter addEscapedOrMultiByte(String value, int from) {
        int length = value.length();
        ensure(3 * (length - from) + 1); // a char is at most three bytes of UTF-8, a pair four
        for (int i = from; i < length; i++) {
            char c = value.charAt(i);
            if (c > 0 && c < 0x80) {
                bytes[size++] = (byte) c;
            } else if (c == 0) {
                bytes[size++] = 0x00;
                bytes[size++] = ESCAPE;
            } else {
                i = addMultiByte(value, i, c);
            }
        }
        bytes[size++] = 0x00;
        return this;
    }

    /** UTF-8 of the character at {@code i}; answers the index of its last char (a pair takes two). */
    private int addMultiByte(String value, int i, char c) {
        if (c < 0x800) {
            bytes[size++] = (byte) (0xC0 | (c >> 6));
            bytes[size++] = (byte) (0x80 | (c & 0x3F));
            return i;
        }
        if (!Character.isSurrogate(c)) {
            bytes[size++] = (byte) (0xE0 | (c >> 12));
            bytes[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
            bytes[size++] = (byte) (0x80 | (c & 0x3F));
            return i;
        }
        if (!Character.isHighSurrogate(c) || i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(i + 1))) {
            // what Tuple refuses too: such a string has no UTF-8 form
            throw new IllegalArgumentException("malformed UTF-16 string does not represent a valid Unicode string");
        }
        int codePoint = Character.toCodePoint(c, value.charAt(i + 1));
        bytes[size++] = (byte) (0xF0 | (codePoint >> 18));
        bytes[size++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
        bytes[size++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
        bytes[size++] = (byte) (0x80 | (codePoint & 0x3F));
        return i + 1;
    }

    /** A byte string element, or null. */
    public TupleWriter add(byte[] value) {
        if (value == null) {
            return addNull();
        }
        ensure(2 * value.length + 2); // every byte escaped at worst
        bytes[size++] = BYTES;
        for (byte b : value) {
            if (b == 0) {
                bytes[size++] = 0x00;
                bytes[size++] = ESCAPE;
            } else {
                bytes[size++] = b;
            }
        }
        bytes[size++] = 0x00;
        return this;
    }

    /**
     * An integer: its code says how many big-endian bytes follow and its sign; a negative one is
     * written as the ones' complement of its magnitude, so that encodings sort as the numbers do.
     */
    public TupleWriter add(long value) {
        ensure(9);
        if (value == 0) {
            bytes[size++] = INT_ZERO;
            return this;
        }
        // the magnitude's bytes; Long.MIN_VALUE's magnitude is 2^63, eight bytes
        long magnitude = value > 0 ? value : (value == Long.MIN_VALUE ? Long.MIN_VALUE : -value);
        int n = 8 - Long.numberOfLeadingZeros(magnitude) / 8;
        bytes[size++] = (byte) (value > 0 ? INT_ZERO + n : INT_ZERO - n);
        long written = value > 0 ? value : value - 1;
        for (int shift = (n - 1) * 8; shift >= 0; shift -= 8) {
            bytes[size++] = (byte) (written >>> shift);
        }
        return this;
    }

    /** An integer element, or null. */
    public TupleWriter addNullable(Long value) {
        return value == null ? addNull() : add(value.longValue());
    }

    public TupleWriter add(boolean value) {
        ensure(1);
        bytes[size++] = value ? TRUE : FALSE;
        return this;
    }

    /** A complete versionstamp, or null. */
    public TupleWriter add(Versionstamp value) {
        if (value == null) {
            return addNull();
        }
        if (!value.isComplete()) {
            throw new IllegalArgumentException("an incomplete versionstamp goes in with addIncompleteVersionstamp");
        }
        ensure(13);
        bytes[size++] = VERSIONSTAMP;
        byte[] stamp = value.getBytes();
        System.arraycopy(stamp, 0, bytes, size, stamp.length);
        size += stamp.length;
        return this;
    }

    /**
     * A placeholder for the versionstamp of the transaction that writes it, with {@code userVersion}
     * (at most one per tuple); {@link #template()} answers where it is.
     */
    public TupleWriter addIncompleteVersionstamp(int userVersion) {
        if (userVersion < 0 || userVersion > 0xFFFF) {
            throw new IllegalArgumentException("user version must fit in two bytes: " + userVersion);
        }
        if (versionstampOffset >= 0) {
            throw new IllegalStateException("a tuple holds at most one incomplete versionstamp");
        }
        ensure(13);
        bytes[size++] = VERSIONSTAMP;
        versionstampOffset = size;
        Arrays.fill(bytes, size, size + 10, (byte) 0); // the commit writes the stamp over them
        size += 10;
        bytes[size++] = (byte) (userVersion >>> 8);
        bytes[size++] = (byte) userVersion;
        return this;
    }

    /** A nested tuple, or null. Nested tuples (a job's history, its dependencies) are rare and small. */
    public TupleWriter add(Tuple value) {
        if (value == null) {
            return addNull();
        }
        byte[] nested = Tuple.from(value).pack();
        ensure(nested.length);
        System.arraycopy(nested, 0, bytes, size, nested.length);
        size += nested.length;
        return this;
    }

    /** The encoded tuple. */
    public byte[] pack() {
        if (versionstampOffset >= 0) {
            throw new IllegalStateException("a tuple with an incomplete versionstamp is packed with template()");
        }
        return Arrays.copyOf(bytes, size);
    }

    /** The first key inside the range of keys that begin with this tuple, as {@code Range.startsWith}. */
    public byte[] rangeBegin() {
        return packWith((byte) 0x00);
    }

    /** The end (exclusive) of the range of keys that begin with this tuple. */
    public byte[] rangeEnd() {
        return packWith((byte) 0xFF);
    }

    private byte[] packWith(byte last) {
        byte[] result = Arrays.copyOf(bytes, size + 1);
        result[size] = last;
        return result;
    }

    /** The encoded tuple with its placeholder, for {@link KvTransaction#setVersionstampedKey} and values. */
    public VersionstampKeys.Template template() {
        if (versionstampOffset < 0) {
            throw new IllegalStateException("no incomplete versionstamp was added");
        }
        return new VersionstampKeys.Template(Arrays.copyOf(bytes, size), versionstampOffset);
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
