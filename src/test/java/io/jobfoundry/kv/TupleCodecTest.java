package io.jobfoundry.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link TupleWriter} and {@link TupleReader} against FoundationDB's own {@link Tuple}: every key and
 * record the engine wrote with {@code Tuple} must be the same bytes now, read back the same, and
 * sort the same, or existing stores would lose their jobs to a release that encodes differently.
 */
class TupleCodecTest {

    private static final long[] EDGES = {0, 1, -1, 255, 256, -255, -256, 65535, 65536, -65536, Integer.MAX_VALUE,
        Integer.MIN_VALUE, 1L << 55, (1L << 56) - 1, 1L << 56, -(1L << 56), -(1L << 56) + 1, Long.MAX_VALUE,
        Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 1_795_000_000_000_000L};

    @Test
    void writesWhatTuplePacksOnRandomElements() {
        SplittableRandom random = new SplittableRandom(20261127);
        for (int n = 0; n < 20_000; n++) {
            List<Object> elements = randomElements(random, 1 + random.nextInt(8), true);
            TupleWriter writer = TupleWriter.withCapacity(random.nextInt(1, 16));
            elements.forEach(e -> write(writer, e));
            byte[] expected = Tuple.fromList(elements).pack();
            assertArrayEquals(expected, writer.pack(), () -> "elements " + elements);
        }
    }

    @Test
    void readsWhatTuplePacksOnRandomElements() {
        SplittableRandom random = new SplittableRandom(27);
        for (int n = 0; n < 20_000; n++) {
            List<Object> elements = randomElements(random, 1 + random.nextInt(8), true);
            TupleReader reader = TupleReader.of(Tuple.fromList(elements).pack());
            for (Object expected : elements) {
                assertTrue(reader.hasNext());
                assertElement(expected, reader);
            }
            assertFalse(reader.hasNext(), () -> "elements " + elements);
        }
    }

    @Test
    void skipsAnyElementToTheOneAfterIt() {
        SplittableRandom random = new SplittableRandom(11);
        for (int n = 0; n < 5_000; n++) {
            List<Object> elements = randomElements(random, 2 + random.nextInt(6), true);
            int skipped = random.nextInt(elements.size());
            TupleReader reader = TupleReader.of(Tuple.fromList(elements).pack()).skip(skipped);
            assertElement(elements.get(skipped), reader);
        }
    }

    /** A tuple continued from a packed prefix, and read from where the prefix ends, as limits' slot keys are. */
    @Test
    void continuesAndReadsOnFromAPackedPrefix() {
        SplittableRandom random = new SplittableRandom(5);
        for (int n = 0; n < 5_000; n++) {
            List<Object> prefix = randomElements(random, 1 + random.nextInt(4), true);
            List<Object> rest = randomElements(random, 1 + random.nextInt(3), true);
            byte[] packed = Tuple.fromList(prefix).pack();
            TupleWriter writer = TupleWriter.after(packed);
            rest.forEach(e -> write(writer, e));
            List<Object> all = new ArrayList<>(prefix);
            all.addAll(rest);
            byte[] expected = Tuple.fromList(all).pack();
            assertArrayEquals(expected, writer.pack(), () -> "elements " + all);
            TupleReader reader = TupleReader.at(expected, packed.length);
            for (Object element : rest) {
                assertElement(element, reader);
            }
            assertFalse(reader.hasNext());
        }
    }

    @Test
    void integersKeepTheirOrderAndValueAtTheEdges() {
        for (long value : EDGES) {
            byte[] written = TupleWriter.withCapacity(1).add(value).pack();
            assertArrayEquals(Tuple.from(value).pack(), written, () -> "value " + value);
            assertEquals(value, TupleReader.of(written).integer());
        }
        long[] sorted = EDGES.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            byte[] lower = TupleWriter.withCapacity(9).add(sorted[i - 1]).pack();
            byte[] higher = TupleWriter.withCapacity(9).add(sorted[i]).pack();
            assertTrue(sorted[i - 1] == sorted[i] || Arrays.compareUnsigned(lower, higher) < 0,
                    () -> "order of " + Arrays.toString(lower) + " and " + Arrays.toString(higher));
        }
    }

    @Test
    void aStringWithoutAUtf8FormIsRefusedAsTupleRefusesIt() {
        for (String malformed : List.of("a\uD800", "\uDC00b", "\uD800\uD800", "x\uDBFFy")) {
            assertThrows(IllegalArgumentException.class, () -> Tuple.from(malformed).pack());
            assertThrows(IllegalArgumentException.class, () -> TupleWriter.of(malformed));
        }
    }

    @Test
    void rangesAreTheKeysThatBeginWithTheTuple() {
        byte[] prefix = Tuple.from("r", "email", "tenant-a").pack();
        TupleWriter writer = TupleWriter.of("r").add("email").add("tenant-a");
        assertArrayEquals(concat(prefix, (byte) 0x00), writer.rangeBegin());
        assertArrayEquals(concat(prefix, (byte) 0xFF), writer.rangeEnd());
        assertArrayEquals(prefix, writer.pack());
    }

    @Test
    void aPlaceholderDecodesAsTheCommitsVersionstampOnceFilled() {
        Versionstamp stamp = Versionstamp.complete(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 7);
        VersionstampKeys.Template template = TupleWriter.of("a").add("email").addIncompleteVersionstamp(7).add("id-1")
                .template();
        byte[] key = template.key().clone();
        VersionstampKeys.fill(key, template.offset(), stamp);
        assertArrayEquals(Tuple.from("a", "email", stamp, "id-1").pack(), key);
        assertThrows(IllegalStateException.class, () -> TupleWriter.of("a").addIncompleteVersionstamp(1).pack());
        assertThrows(IllegalStateException.class, () -> TupleWriter.of("a").template());
        assertThrows(IllegalArgumentException.class, () -> TupleWriter.of("a").addIncompleteVersionstamp(65536));
        assertThrows(IllegalArgumentException.class,
                () -> TupleWriter.of("a").add(Versionstamp.incomplete(1)));
    }

    @Test
    void bytesThatAreNotThisTupleAreRefused() {
        byte[] stringThenInteger = Tuple.from("j", 42L).pack();
        assertThrows(IllegalArgumentException.class, () -> TupleReader.of(stringThenInteger).integer());
        assertThrows(IllegalArgumentException.class, () -> TupleReader.of(stringThenInteger).skip(1).string());
        assertThrows(IllegalArgumentException.class, () -> TupleReader.of(stringThenInteger).skip(2).integer());
        assertThrows(IllegalArgumentException.class, () -> TupleReader.of(new byte[] {0x02, 'a'}).string());
        assertThrows(IllegalArgumentException.class, () -> TupleReader.of(new byte[] {0x16, 1}).integer());
        assertThrows(IllegalArgumentException.class, () -> TupleReader.of(new byte[] {0x21, 1}).skip(1));
        assertThrows(IllegalArgumentException.class, () -> TupleReader.of(Tuple.from(true).pack()).nullableInteger());
    }

    private static void write(TupleWriter writer, Object element) {
        if (element == null) {
            writer.addNull();
        } else if (element instanceof String s) {
            writer.add(s);
        } else if (element instanceof Long l) {
            writer.add(l.longValue());
        } else if (element instanceof byte[] b) {
            writer.add(b);
        } else if (element instanceof Boolean b) {
            writer.add(b.booleanValue());
        } else if (element instanceof Versionstamp v) {
            writer.add(v);
        } else {
            writer.add((Tuple) element);
        }
    }

    private static void assertElement(Object expected, TupleReader reader) {
        if (expected == null) {
            assertTrue(reader.nextIsNull());
            assertNull(reader.string());
        } else if (expected instanceof String s) {
            assertEquals(s, reader.string());
        } else if (expected instanceof Long l) {
            assertEquals(l, reader.nullableInteger());
        } else if (expected instanceof byte[] b) {
            assertArrayEquals(b, reader.bytes());
        } else if (expected instanceof Boolean b) {
            assertEquals(b, reader.bool());
        } else if (expected instanceof Versionstamp v) {
            assertEquals(v, reader.versionstamp());
        } else {
            assertEquals(expected, reader.nested());
        }
    }

    private static List<Object> randomElements(SplittableRandom random, int count, boolean nesting) {
        List<Object> elements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            elements.add(randomElement(random, nesting));
        }
        return elements;
    }

    private static Object randomElement(SplittableRandom random, boolean nesting) {
        return switch (random.nextInt(nesting ? 8 : 7)) {
            case 0 -> null;
            case 1 -> randomString(random);
            case 2 -> random.nextBoolean() ? EDGES[random.nextInt(EDGES.length)] : random.nextLong() >> random.nextInt(64);
            case 3 -> randomBytes(random);
            case 4 -> random.nextBoolean();
            case 5 -> Versionstamp.complete(randomFixed(random, 10), random.nextInt(0x10000));
            case 6 -> randomString(random);
            default -> Tuple.fromList(randomElements(random, random.nextInt(4), false));
        };
    }

    /**
     * Strings over ASCII, NUL, Latin-1, three-byte and four-byte characters; half of them begin
     * with a run of ASCII as long as an id (the writer's one-byte-a-character path, left at any
     * point for the others).
     */
    private static String randomString(SplittableRandom random) {
        StringBuilder s = new StringBuilder();
        if (random.nextBoolean()) {
            s.append("x".repeat(random.nextInt(48)));
        }
        int length = random.nextInt(12);
        for (int i = 0; i < length; i++) {
            switch (random.nextInt(6)) {
                case 0 -> s.append('\0');
                case 1 -> s.append((char) random.nextInt(0x80, 0x800));
                case 2 -> s.append((char) random.nextInt(0x800, 0xD800));
                case 3 -> s.appendCodePoint(random.nextInt(0x10000, 0x110000));
                case 4 -> s.append((char) random.nextInt(0xE000, 0x10000));
                default -> s.append((char) random.nextInt(1, 0x80));
            }
        }
        return s.toString();
    }

    private static byte[] randomBytes(SplittableRandom random) {
        byte[] bytes = randomFixed(random, random.nextInt(10));
        for (int i = 0; i < bytes.length; i++) {
            if (random.nextInt(4) == 0) {
                bytes[i] = (byte) (random.nextBoolean() ? 0x00 : 0xFF);
            }
        }
        return bytes;
    }

    private static byte[] randomFixed(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) random.nextInt(256);
        }
        return bytes;
    }

    private static byte[] concat(byte[] a, byte b) {
        byte[] result = Arrays.copyOf(a, a.length + 1);
        result[a.length] = b;
        return result;
    }
}
