package io.jobfoundry.kv.fdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.KvTransaction;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FdbOptionsTest {

    @Test
    void aMissingOrBlankClusterFileMeansFdbsDefault() {
        assertEquals(Optional.empty(), FdbOptions.ofClusterFile(null).clusterFile());
        assertEquals(Optional.empty(), FdbOptions.ofClusterFile(" ").clusterFile());
        assertEquals(Optional.empty(), new FdbOptions(null, new byte[] {1}).clusterFile());
        assertEquals(Optional.of("/etc/fdb.cluster"), FdbOptions.ofClusterFile("/etc/fdb.cluster").clusterFile());
    }

    @Test
    void theDefaultPrefixIsTheJobfoundryTuple() {
        assertArrayEquals(Tuple.from("jobfoundry").pack(), FdbOptions.ofClusterFile(null).keyPrefix());
    }

    @Test
    void aPrefixMustNameAnOrdinarySubspace() {
        FdbOptions options = FdbOptions.ofClusterFile(null);

        assertThrows(IllegalArgumentException.class, () -> options.withKeyPrefix(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> options.withKeyPrefix(new byte[] {(byte) 0xFF, 1}));
    }

    @Test
    void aPrefixLeavesRoomForTheLongestKey() {
        FdbOptions options = FdbOptions.ofClusterFile(null);

        options.withKeyPrefix(new byte[KvTransaction.MAX_KEY_PREFIX_BYTES]);
        assertThrows(IllegalArgumentException.class,
                () -> options.withKeyPrefix(new byte[KvTransaction.MAX_KEY_PREFIX_BYTES + 1]));
    }

    @Test
    void thePrefixCannotBeChangedFromOutside() {
        byte[] prefix = {1, 2};
        FdbOptions options = FdbOptions.ofClusterFile(null).withKeyPrefix(prefix);

        prefix[0] = 9;
        options.keyPrefix()[1] = 9;

        assertArrayEquals(new byte[] {1, 2}, options.keyPrefix());
    }

    @Test
    void optionsCompareByContent() {
        assertEquals(FdbOptions.ofClusterFile("/a").withKeyPrefix(new byte[] {1}),
                FdbOptions.ofClusterFile("/a").withKeyPrefix(new byte[] {1}));
    }

    @Test
    void theDescriptionNamesClusterFileAndPrefix() {
        assertEquals("FoundationDB (cluster file FDB's default, key prefix \\x02jobfoundry\\x00)",
                FdbOptions.ofClusterFile(null).describe());
    }
}
