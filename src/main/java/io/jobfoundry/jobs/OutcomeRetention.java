package io.jobfoundry.jobs;

import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.Sync;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Forgets accept and removal outcomes once no retry of theirs can still be running. It clears them
 * a bounded step at a time, each step a transaction of its own: on the embedded store a clear
 * deletes row by row, and a minute of outcomes at full load is hundreds of thousands of keys, which
 * in one transaction would hold up every other commit for as long as it ran.
 */
public final class OutcomeRetention {

    /** Outcomes cleared per transaction. */
    static final int STEP = 1_000;

    private final JobEngine engine;
    private final int step;

    public OutcomeRetention(JobEngine engine) {
        this(engine, STEP);
    }

    OutcomeRetention(JobEngine engine, int step) {
        if (step < 1) {
            throw new IllegalArgumentException("step must be positive: " + step);
        }
        this.engine = engine;
        this.step = step;
    }

    /** Forgets every outcome older than the retention. */
    public void runOnce() {
        runOnce(() -> false);
    }

    /**
     * Forgets outcomes older than the retention, a step at a time, until none is left or
     * {@code standDown} answers true after a step: what a step leaves is cleared by the next run.
     */
    public void runOnce(BooleanSupplier standDown) {
        byte[] begin = JobKeys.outcomesBegin();
        long cutoff = Times.micros(engine.clock().instant().minus(JobEngine.OUTCOME_RETENTION));
        byte[] end = JobKeys.outcomesBefore(cutoff);
        int cleared;
        do {
            // Safe to retry: a step that ran already finds the next keys. A snapshot read, since
            // nothing writes an outcome this old, so no other transaction need conflict with it.
            // DEFERRABLE: a clear lost with an unsynced commit is made again the next minute.
            cleared = engine.runner().run(tx -> {
                List<KeyValue> oldest = tx.snapshot().getRange(begin, end, step, false);
                if (!oldest.isEmpty()) {
                    byte[] last = oldest.get(oldest.size() - 1).key();
                    tx.clearRange(begin, Arrays.copyOf(last, last.length + 1)); // through last
                }
                return oldest.size();
            }, Sync.DEFERRABLE);
        } while (cleared == step && !standDown.getAsBoolean());
    }
}
