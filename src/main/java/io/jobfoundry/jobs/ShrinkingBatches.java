package io.jobfoundry.jobs;

import io.jobfoundry.kv.RetriesExhaustedException;
import io.jobfoundry.kv.StoreLimitException;
import java.util.function.IntFunction;

/**
 * Works through a range of keys a transaction at a time, each over at most a batch of them. A
 * batch whose transaction grows too large (its jobs carry large data) or too slow is tried again
 * at half the size, down to one key: a monitor that insisted on its batch would fail on it forever
 * and leave every job after it untouched.
 */
final class ShrinkingBatches {

    /** What one transaction did: keys it read (fewer than asked: the range is done), and jobs it moved. */
    record Step(int read, int moved) {
    }

    private ShrinkingBatches() {
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
                if (batch == 1) {
                    throw e;
                }
                batch = Math.max(1, batch / 2);
                continue;
            }
            moved += done.moved();
            if (done.read() < batch) {
                return moved;
            }
        }
    }
}
