package io.jobfoundry.kv.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.TransactionRunner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store whose file (or log, or folder) is deleted or moved while it runs stops taking work and
 * says so to the liveness probe, rather than commit into a file no path reaches, which the next
 * start would not find: every job acknowledged in between would be gone without a word.
 */
class MovedStoreFileTest {

    @TempDir
    Path folder;

    private EmbeddedStore store;

    private TransactionRunner open() {
        // The committer looks before every batch that writes, not every 100 ms as in service.
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("data/store.db")), size -> { }, LogSync.NONE,
                Duration.ZERO);
        TransactionRunner runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        write(runner, "before");
        assertTrue(store.failedForGood().isEmpty());
        return runner;
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void aDeletedFileStopsTheNextWriteAndTheStore() throws Exception {
        TransactionRunner runner = open();
        Files.delete(folder.resolve("data/store.db"));

        StoreException refused = assertThrows(StoreException.class, () -> write(runner, "after"));
        assertFalse(refused instanceof RetryableStoreException, "not retried: " + refused);
        assertTrue(refused.getMessage().contains("is gone since it was opened"), refused.getMessage());
        assertTrue(store.failedForGood().orElseThrow().contains("restart the service"), "for the liveness probe");
        assertThrows(StoreException.class, () -> runner.run(tx -> tx.get(bytes("before"))), "it takes no more work");
    }

    @Test
    void aMovedFolderIsFoundByTheLivenessProbeWithNoWorkComing() throws Exception {
        open();
        Files.move(folder.resolve("data"), folder.resolve("data.moved"));

        assertTrue(store.failedForGood().orElseThrow().contains("moved or deleted under the running service"));
    }

    @Test
    void aFileReplacedByAnotherIsFound() throws Exception {
        open();
        Path file = folder.resolve("data/store.db");
        Files.move(file, folder.resolve("data/old.db"));
        Files.write(file, new byte[0]);

        assertTrue(store.failedForGood().orElseThrow().contains("is another file since it was opened"));
    }

    @Test
    void aDeletedLogIsFound() throws Exception {
        TransactionRunner runner = open();
        Files.delete(folder.resolve("data/store.db-wal"));

        StoreException refused = assertThrows(StoreException.class, () -> write(runner, "after"));
        assertTrue(refused.getMessage().contains("its log"), refused.getMessage());
    }

    /** A store path that is a link: the log SQLite writes is beside the file the link names. */
    @Test
    void aDeletedLogBesideALinksTargetIsFound() throws Exception {
        Files.createDirectories(folder.resolve("volume"));
        Files.createDirectories(folder.resolve("data"));
        Files.createSymbolicLink(folder.resolve("data/store.db"), folder.resolve("volume/real.db"));
        TransactionRunner runner = open();
        Files.delete(folder.resolve("volume/real.db-wal"));

        StoreException refused = assertThrows(StoreException.class, () -> write(runner, "after"));
        assertTrue(refused.getMessage().contains("its log"), refused.getMessage());
    }

    @Test
    void aStoreLeftInPlaceGoesOnAndReopensWithItsData() {
        TransactionRunner runner = open();
        for (int i = 0; i < 3; i++) {
            write(runner, "k" + i);
        }
        assertTrue(store.failedForGood().isEmpty());
        store.close();
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("data/store.db")));
        assertEquals("k2", new String(new TransactionRunner(store, RetryPolicy.DEFAULT)
                .run(tx -> tx.get(bytes("k2"))), StandardCharsets.UTF_8));
    }

    private static void write(TransactionRunner runner, String key) {
        runner.run(tx -> {
            tx.set(bytes(key), bytes(key));
            return null;
        });
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
