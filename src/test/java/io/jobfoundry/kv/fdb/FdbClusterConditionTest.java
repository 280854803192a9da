package io.jobfoundry.kv.fdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.io.TempDir;

/** The skip reasons must say what is missing, since they are all a developer sees. */
class FdbClusterConditionTest {

    @Test
    void withoutAClusterFileVariableTheReasonSaysSo() {
        assertDisabled("FDB_CLUSTER_FILE is not set", FdbClusterCondition.probe(null));
        assertDisabled("FDB_CLUSTER_FILE is not set", FdbClusterCondition.probe(""));
    }

    @Test
    void aClusterFileThatDoesNotExistIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("fdb.cluster");

        assertDisabled("FDB_CLUSTER_FILE names no file: " + missing, FdbClusterCondition.probe(missing.toString()));
    }

    @Test
    void withoutLibfdbCTheReasonNamesTheMissingLibrary(@TempDir Path dir) throws Exception {
        Optional<String> missing = NativeClient.unavailableReason();
        assumeTrue(missing.isPresent(), "libfdb_c is installed here");
        Path clusterFile = Files.writeString(dir.resolve("fdb.cluster"), "test:test@127.0.0.1:4500\n");

        ConditionEvaluationResult result = FdbClusterCondition.probe(clusterFile.toString());

        assertTrue(result.isDisabled());
        assertEquals(Optional.of("libfdb_c is not installed: " + missing.get()), result.getReason());
        assertTrue(missing.get().contains("libfdb_c"), missing.get());
    }

    private static void assertDisabled(String reason, ConditionEvaluationResult result) {
        assertTrue(result.isDisabled());
        assertEquals(Optional.of(reason), result.getReason());
    }
}
