package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.apple.foundationdb.tuple.Tuple;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Records written by an earlier release still read; what this one writes reads back whole. */
class JobRecordTest {

    /** A finished job as format 1 wrote it, before a finish's outcome was kept. */
    @Test
    void aFormatOneRecordDecodesWithoutAFinishOutcome() {
        byte[] stored = Tuple.fromList(Arrays.asList(1L, (long) JobState.FINISHED.ordinal(),
                (long) JobResult.SUCCEEDED.ordinal(), "{\"a\":1}".getBytes(StandardCharsets.UTF_8), "g",
                (long) Priority.LOW.ordinal(), 10L, 11L, 12L, 13L, 14L, null, 0L, 3L, null, false, "w", 7L,
                null, false, false, "origin", "lease-1", false, null)).pack();

        JobRecord r = JobRecord.decode("email", "a", stored);

        assertEquals(JobState.FINISHED, r.state);
        assertEquals(JobResult.SUCCEEDED, r.result);
        assertEquals("{\"a\":1}", r.data);
        assertEquals(14L, r.finishedAt);
        assertEquals("lease-1", r.finishedLease);
        assertNull(r.finishedAs, "format 1 did not know the outcome");
        assertNull(r.runScheduledAt);
        assertNull(r.activity);
    }

    @Test
    void aRecordReadsBackWithWhatFormatTwoAdded() {
        JobRecord r = new JobRecord("email", "a");
        r.state = JobState.FINISHED;
        r.result = JobResult.FAILED;
        r.priority = Priority.HIGH;
        r.scheduledAt = 5;
        r.finishedLease = "lease-2";
        r.finishedAs = JobResult.FAILED;
        r.runScheduledAt = 3L;
        r.lastError = "boom";

        JobRecord back = JobRecord.decode("email", "a", r.encode());

        assertEquals(JobResult.FAILED, back.finishedAs);
        assertEquals(3L, back.runScheduledAt);
        assertEquals("lease-2", back.finishedLease);
        assertEquals("boom", back.lastError);
        assertEquals(Priority.HIGH, back.priority);
        assertEquals(r.view(), back.view());
    }
}
