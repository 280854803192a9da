package io.jobfoundry.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The injector does what the engine suite relies on: faults before commit undo, faults after keep. */
class FaultInjectingStoreTest {

    @TempDir
    Path folder;

    private static final byte[] COUNTER = Tuple.from("counter").pack();

    @Test
    void faultsBeforeCommitLeaveNothingBehind() {
        try (FaultInjectingStore store = new FaultInjectingStore(
                EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("a.db"))), 1.0, FaultInjectingStore.Mode.BEFORE_COMMIT, 1)) {
            TransactionRunner runner = new TransactionRunner(store,
                    new RetryPolicy(3, Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO, Duration.ZERO));
            assertThrows(RetriesExhaustedException.class, () -> runner.run(tx -> {
                tx.add(COUNTER, 1);
                return null;
            }));
            assertEquals(3, store.injected());
            store.setEnabled(false);
            assertNull(runner.run(tx -> tx.get(COUNTER)));
        }
    }

    @Test
    void faultsAfterCommitApplyTheEffectYetAskForARetry() {
        try (FaultInjectingStore store = new FaultInjectingStore(
                EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("b.db"))), 0.5, FaultInjectingStore.Mode.AFTER_COMMIT, 7)) {
            TransactionRunner runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
            int operations = 200;
            for (int i = 0; i < operations; i++) {
                // A blind increment is not idempotent: commit_unknown_result makes it count twice.
                runner.run(tx -> {
                    tx.add(COUNTER, 1);
                    return null;
                });
            }
            store.setEnabled(false);
            long counted = ByteBuffer.wrap(runner.run(tx -> tx.get(COUNTER))).order(ByteOrder.LITTLE_ENDIAN).getLong();
            assertTrue(store.injected() > 50, "about half of the commits fault: " + store.injected());
            assertEquals(operations + store.injected(), counted, "every faulted commit took effect and was retried");
        }
    }
}
