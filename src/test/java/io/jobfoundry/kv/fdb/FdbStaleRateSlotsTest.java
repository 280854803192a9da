package io.jobfoundry.kv.fdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.RateLimit;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.SlotKeys;
import io.jobfoundry.jobs.records.StaleRateSlots;
import io.jobfoundry.jobs.records.TypeRegistry;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.TransactionRunner;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The stale-slot sweep against a start on the same slot, interleaved by hand on a real cluster,
 * where transactions run at once (the embedded store runs them one after another, so the engine
 * contract cannot interleave them). Whichever commits second must fail with a conflict, or a
 * start would be lost to a clear, or a clear would stand over a start: either lets a group start
 * more than its rate limit allows.
 */
@EnabledIfFdbReachable
class FdbStaleRateSlotsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long WINDOW_MICROS = 10_000_000;
    private static final long THEN = 1_795_000_000_000_000L;
    private static final long NOW = THEN + WINDOW_MICROS;

    private final byte[] slot = SlotKeys.groupRateSlots("api", "tenant-7").slot(0);
    private KvStore store;
    private TransactionRunner runner;

    @BeforeEach
    void open() {
        store = FdbTestStores.open(Tuple.from("jobfoundry-stale-slots-test", UUID.randomUUID()).pack());
        runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        runner.run(tx -> {
            TypeRegistry.put(tx, "api", TypeSettings.DEFAULT.withLimits(new Concurrency(null, null),
                    new RateLimit(1, Duration.ofNanos(WINDOW_MICROS * 1_000), true)));
            tx.set(slot, SlotKeys.rateSlotValue(THEN)); // a start a whole window ago: stale now
            return null;
        });
    }

    @AfterEach
    void discard() {
        FdbTestStores.clearAndClose(store);
    }

    @Test
    void aStartCommittedDuringTheSweepMakesTheSweepConflict() {
        RetryableStoreException conflict = assertThrows(RetryableStoreException.class, () -> store.runOnce(tx -> {
            StaleRateSlots.Swept swept = StaleRateSlots.clear(tx, "api", null, 10, NOW);
            assertEquals(1, swept.cleared(), "the sweep found the slot stale");
            takeSlot(); // a start takes the slot and commits before the sweep does
            return swept;
        }, TIMEOUT));
        assertEquals(RetryableStoreException.Reason.CONFLICT, conflict.reason());
        assertArrayEquals(SlotKeys.rateSlotValue(NOW), runner.run(tx -> tx.get(slot)), "the start's slot stands");
        assertEquals(0, runner.run(tx -> StaleRateSlots.clear(tx, "api", null, 10, NOW)).cleared(),
                "retried, the sweep sees the start and keeps the slot");
    }

    @Test
    void aSweepCommittedDuringAStartMakesTheStartConflict() {
        RetryableStoreException conflict = assertThrows(RetryableStoreException.class, () -> store.runOnce(tx -> {
            byte[] seen = tx.snapshot().get(slot); // the accept path finds slots with snapshot reads
            assertEquals(THEN, SlotKeys.rateSlotTime(seen));
            assertEquals(1, runner.run(other -> StaleRateSlots.clear(other, "api", null, 10, NOW)).cleared());
            tx.addReadConflictKey(slot); // and takes one with a conflict on it, as RateSlots.take does
            tx.set(slot, SlotKeys.rateSlotValue(NOW));
            return null;
        }, TIMEOUT));
        assertEquals(RetryableStoreException.Reason.CONFLICT, conflict.reason());
        assertNull(runner.run(tx -> tx.get(slot)), "the clear stands; a retried start finds the slot free");
    }

    private void takeSlot() {
        runner.run(other -> {
            other.addReadConflictKey(slot);
            other.set(slot, SlotKeys.rateSlotValue(NOW));
            return null;
        });
    }
}
