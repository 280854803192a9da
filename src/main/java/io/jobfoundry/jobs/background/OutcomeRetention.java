package io.jobfoundry.jobs.background;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.records.Times;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.Sync;
import java.time.Duration;
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

    /**
     * How long an accept's or a removal's outcome is kept for its own retries: far beyond any
     * retry loop (a run gives up after three attempt timeouts, and at least 15 s).
     */
    public static final Duration KEPT = Duration.ofMinutes(15);

    /** Outcomes cleared per transaction. */
    static final int STEP = 1_000;

    private final EngineContext context;
    private final int step;

    public OutcomeRetention(EngineContext context) {
        this(context, STEP);
    }

    public OutcomeRetention(EngineContext context, int step) {
        if (step < 1) {
            throw new IllegalArgumentException("step must be positive: " + step);
        }
        this.context = context;
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
        long cutoff = Times.micros(context.clock().instant().minus(KEPT));
        byte[] end = JobKeys.outcomesBefore(cutoff);
        int cleared;
        do {
            // Safe to retry: a step that ran already finds the next keys. A snapshot read, since
            // nothing writes an outcome this old, so no other transaction need conflict with it.
            // DEFERRABLE: a clear lost with an unsynced commit is made again the next minute.
            cleared = context.runner().run(tx -> {
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
