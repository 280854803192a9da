package io.jobfoundry.kv;

import static io.jobfoundry.kv.TupleWriter.BYTES;
import static io.jobfoundry.kv.TupleWriter.ESCAPE;
import static io.jobfoundry.kv.TupleWriter.FALSE;
import static io.jobfoundry.kv.TupleWriter.INT_ZERO;
import static io.jobfoundry.kv.TupleWriter.NESTED;
import static io.jobfoundry.kv.TupleWriter.NULL;
import static io.jobfoundry.kv.TupleWriter.STRING;
import static io.jobfoundry.kv.TupleWriter.TRUE;
import static io.jobfoundry.kv.TupleWriter.VERSIONSTAMP;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a tuple written by {@link TupleWriter} or {@link Tuple#pack()} one element at a time, in
 * place: a key's or record's elements are read in order, the ones not wanted skipped. A reader
 * asked for an element of another type, or past the end, throws {@link IllegalArgumentException}:
 * the bytes are not what this release wrote.
 */
public final class TupleReader {

    private final byte[] bytes;
    private int position;

    private TupleReader(byte[] bytes) {
        this.bytes = bytes;
    }

    public static TupleReader of(byte[] bytes) {
        return new TupleReader(bytes);
    }

    /** A reader of the elements that begin at {@code offset}: those after a packed prefix of that length. */
    public static TupleReader at(byte[] bytes, int offset) {
        TupleReader reader = new TupleReader(bytes);
        reader.position = offset;
        return reader;
    }

    /** Whether an element is left to read. */
    public boolean hasNext() {
        return position < bytes.length;
    }

    /** Whether the next element is null (it is not consumed). */
    public boolean nextIsNull() {
        return code() == NULL;
    }

    /** Passes over {@code count} elements of any type. */
    public TupleReader skip(int count) {
        for (int i = 0; i < count; i++) {
            position = end(position);
        }
        return this;
    }

    /** The next element, a string or null. */
    public String string() {
        if (tookNull()) {
            return null;
        }
        expect(STRING, "a string");
        return new String(unescape(position + 1), StandardCharsets.UTF_8);
    }

    /** The next element, a byte string or null. */
    public byte[] bytes() {
        if (tookNull()) {
            return null;
        }
        expect(BYTES, "a byte string");
        return unescape(position + 1);
    }

    /** The next element, an integer (not null). */
    public long integer() {
        byte code = code();
        int n = code - INT_ZERO;
        if (n < -8 || n > 8) {
            throw unexpected(code, "an integer");
        }
        int length = Math.abs(n);
        if (position + 1 + length > bytes.length) {
            throw new IllegalArgumentException("a truncated integer at byte " + position);
        }
        long unsigned = 0;
        for (int i = 1; i <= length; i++) {
            unsigned = (unsigned << 8) | (bytes[position + i] & 0xFF);
        }
        position += 1 + length;
        if (n >= 0) {
            if (unsigned < 0) {
                throw new IllegalArgumentException("an integer beyond the range of a long");
            }
            return unsigned;
        }
        if (length == 8) {
            // the ones' complement of a magnitude of eight bytes; above 2^63 it is no long
            if (unsigned >= 0 && unsigned != Long.MAX_VALUE) {
                throw new IllegalArgumentException("an integer beyond the range of a long");
            }
            return unsigned + 1;
        }
        return unsigned - ((1L << (8 * length)) - 1);
    }

    /** The next element, an integer or null. */
    public Long nullableInteger() {
        return tookNull() ? null : integer();
    }

    /** The next element, a boolean (not null). */
    public boolean bool() {
        byte code = code();
        if (code != TRUE && code != FALSE) {
            throw unexpected(code, "a boolean");
        }
        position++;
        return code == TRUE;
    }

    /** The next element, a versionstamp or null. */
    public Versionstamp versionstamp() {
        if (tookNull()) {
            return null;
        }
        expect(VERSIONSTAMP, "a versionstamp");
        if (position + 13 > bytes.length) {
            throw new IllegalArgumentException("a truncated versionstamp at byte " + position);
        }
        byte[] stamp = new byte[12];
        System.arraycopy(bytes, position + 1, stamp, 0, 12);
        position += 13;
        return Versionstamp.fromBytes(stamp);
    }

    /** The next element, a nested tuple or null. */
    public Tuple nested() {
        if (tookNull()) {
            return null;
        }
        expect(NESTED, "a nested tuple");
        int start = position;
        position = end(position);
        return Tuple.fromBytes(bytes, start, position - start).getNestedTuple(0);
    }

    private byte code() {
        if (position >= bytes.length) {
            throw new IllegalArgumentException("no element left at byte " + position);
        }
        return bytes[position];
    }

    /** Whether the next element is null; if so, moves past it. */
    private boolean tookNull() {
        if (code() != NULL) {
            return false;
        }
        position++;
        return true;
    }

    private void expect(byte wanted, String what) {
        if (code() != wanted) {
            throw unexpected(code(), what);
        }
    }

    private static IllegalArgumentException unexpected(byte code, String what) {
        return new IllegalArgumentException("expected " + what + ", found type code " + (code & 0xFF));
    }

    /** The bytes of the string or byte string whose content starts at {@code from}; moves past its end. */
    private byte[] unescape(int from) {
        int i = from;
        boolean escaped = false;
        while (true) {
            if (i >= bytes.length) {
                throw new IllegalArgumentException("an unterminated string at byte " + position);
            }
            if (bytes[i] == 0) {
                if (i + 1 < bytes.length && bytes[i + 1] == ESCAPE) {
                    escaped = true;
                    i += 2;
                    continue;
                }
                break;
            }
            i++;
        }
        position = i + 1;
        if (!escaped) {
            return Arrays.copyOfRange(bytes, from, i);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(i - from);
        for (int j = from; j < i; j++) {
            out.write(bytes[j]);
            if (bytes[j] == 0) {
                j++; // the escape after it
            }
        }
        return out.toByteArray();
    }

    /** Where the element at {@code at} ends. */
    private int end(int at) {
        if (at >= bytes.length) {
            throw new IllegalArgumentException("no element left at byte " + at);
        }
        byte code = bytes[at];
        if (code == NULL || code == TRUE || code == FALSE) {
            return at + 1;
        }
        if (code == BYTES || code == STRING) {
            return terminator(at + 1, false) + 1;
        }
        if (code == NESTED) {
            return terminator(at + 1, true) + 1;
        }
        if (code >= INT_ZERO - 8 && code <= INT_ZERO + 8) {
            return at + 1 + Math.abs(code - INT_ZERO);
        }
        if (code == VERSIONSTAMP) {
            return at + 13;
        }
        throw new IllegalArgumentException("a type code this release does not write: " + (code & 0xFF));
    }

    /** The index of the 0x00 that ends the element whose content starts at {@code from}. */
    private int terminator(int from, boolean nested) {
        int i = from;
        while (i < bytes.length) {
            byte b = bytes[i];
            if (b == 0) {
                if (i + 1 < bytes.length && bytes[i + 1] == ESCAPE) {
                    i += 2; // an escaped 0x00 inside a string, or a null inside a nested tuple
                    continue;
                }
                return i;
            }
            if (nested) {
                i = end(i);
            } else {
                i++;
            }
        }
        throw new IllegalArgumentException("an unterminated element at byte " + from);
    }
}
