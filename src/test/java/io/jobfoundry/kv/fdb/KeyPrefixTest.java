package io.jobfoundry.kv.fdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.TupleWriter;
import io.jobfoundry.kv.VersionstampKeys;
import org.junit.jupiter.api.Test;

class KeyPrefixTest {

    private static final byte[] PREFIX = {0x02, 'j', 'f', 0x00};

    private final KeyPrefix keys = new KeyPrefix(PREFIX);

    @Test
    void keysGainThePrefixAndLoseItOnTheWayBack() {
        byte[] stored = keys.add(new byte[] {7, 8});

        assertArrayEquals(new byte[] {0x02, 'j', 'f', 0x00, 7, 8}, stored);
        assertArrayEquals(new byte[] {7, 8}, keys.strip(stored));
        assertArrayEquals(PREFIX, keys.add(new byte[0]));
    }

    @Test
    void aVersionstampedKeyCarriesItsPlaceholderOffsetShiftedByThePrefixLittleEndian() {
        VersionstampKeys.Template template = TupleWriter.of("log").addIncompleteVersionstamp(1).add("x").template();
        int shifted = PREFIX.length + template.offset();

        byte[] param = keys.versionstampedKey(template.key(), template.offset());

        byte[] expected = new byte[PREFIX.length + template.key().length + 4];
        System.arraycopy(PREFIX, 0, expected, 0, PREFIX.length);
        System.arraycopy(template.key(), 0, expected, PREFIX.length, template.key().length);
        expected[expected.length - 4] = (byte) shifted;
        assertArrayEquals(expected, param);
    }

    @Test
    void aVersionstampedValueCarriesItsOffsetUnshifted() {
        byte[] value = new byte[300];

        byte[] param = KeyPrefix.versionstampedValue(value, 258);

        assertArrayEquals(new byte[] {2, 1, 0, 0}, java.util.Arrays.copyOfRange(param, 300, 304));
    }
}
