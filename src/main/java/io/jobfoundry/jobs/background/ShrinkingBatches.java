package io.jobfoundry.jobs.background;

import io.jobfoundry.jobs.records.Step;
import io.jobfoundry.kv.RetriesExhaustedException;
import io.jobfoundry.kv.StoreLimitException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Works through a range of keys a transaction at a time, each over at most a batch of them. A
 * batch whose transaction grows too large (its jobs carry large data) or too slow is tried again
 * at half the size, down to one key: a monitor that insisted on its batch would fail on it forever
 * and leave every job after it untouched.
 */
public final class ShrinkingBatches {

    /**
     * How many items (types) a monitor's read-only probe looks at in one transaction, to begin
     * with. On FoundationDB a body's reads run one after another, so a probe of many must stay well
     * inside the 5 s a transaction lives even when each read is slow.
     */
    public static final int PROBE_ITEMS = 64;

    /** What one transaction did: keys it read (fewer than asked: the range is done), and jobs it moved. */
    record Step(int read, int moved) {
    }

    private ShrinkingBatches() {
    }

    /**
     * Runs {@code read} over {@code items} a sublist of at most {@code size} items at a time, and
     * {@code use} with what each read; {@code use} is not retried. A read too large or too slow is
     * tried again at half the size, down to one item, and the smaller size is kept in {@code size}
     * for later calls: what was too slow once (a cluster slow to answer) is likely to be again, and
     * smaller reads cost only more transactions.
     */
    static <T, R> void inChunks(List<T> items, AtomicInteger size, Function<List<T>, R> read,
            BiConsumer<List<T>, R> use) {
        int from = 0;
        while (from < items.size()) {
            int batch = size.get();
            List<T> chunk = items.subList(from, Math.min(items.size(), from + batch));
            R found;
            try {
                found = read.apply(chunk);
            } catch (StoreLimitException | RetriesExhaustedException e) {
                size.compareAndSet(batch, halved(batch, e));
                continue;
            }
            use.accept(chunk, found);
            from += chunk.size();
        }
    }

    /** Runs {@code step} with the batch size until a step reads less than a full batch; answers the jobs moved. */
    static int drain(int firstBatch, IntFunction<Step> step) {
        int moved = 0;
        int batch = firstBatch;
        while (true) {
            Step done;
            try {
                done = step.apply(batch);
            } catch (StoreLimitException | RetriesExhaustedException e) {
                batch = halved(batch, e);
                continue;
            }
            moved += done.moved();
            if (done.read() < batch) {
                return moved;
            }
        }
    }

    /** The size to try next after {@code failure} at {@code batch}; a batch of one has nothing left to halve. */
    private static int halved(int batch, RuntimeException failure) {
        if (batch == 1) {
            throw failure;
        }
        return Math.max(1, batch / 2);
    }
}
