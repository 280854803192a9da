package io.jobfoundry.jobs.background;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jobfoundry.kv.RetriesExhaustedException;
import io.jobfoundry.kv.RetryableStoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A monitor's probes shrink when they are too slow, and stay small. */
class ShrinkingBatchesTest {

    private static final List<Integer> ITEMS = IntStream.range(0, 10).boxed().toList();

    private static RetriesExhaustedException tooSlow() {
        return new RetriesExhaustedException(3,
                new RetryableStoreException(RetryableStoreException.Reason.TIMEOUT, "test", null));
    }

    @Test
    void aReadTooSlowForItsSizeIsTriedAgainAtHalfAndTheSizeIsKept() {
        AtomicInteger size = new AtomicInteger(8);
        List<Integer> used = new ArrayList<>();

        ShrinkingBatches.inChunks(ITEMS, size, chunk -> {
            if (chunk.size() > 2) {
                throw tooSlow();
            }
            return chunk.size();
        }, (chunk, read) -> {
            assertEquals(chunk.size(), read);
            used.addAll(chunk);
        });

        assertEquals(ITEMS, used, "every item once, in order");
        assertEquals(2, size.get(), "the next run starts at the size that went through");
    }

    @Test
    void aReadThatFailsForOneItemFailsTheRun() {
        AtomicInteger size = new AtomicInteger(8);

        assertThrows(RetriesExhaustedException.class, () -> ShrinkingBatches.inChunks(ITEMS, size, chunk -> {
            throw tooSlow();
        }, (chunk, read) -> { }));
        assertEquals(1, size.get());
    }
}
