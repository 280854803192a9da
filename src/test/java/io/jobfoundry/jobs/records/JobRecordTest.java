package io.jobfoundry.jobs.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Replicas of two releases share one store during a rolling upgrade or a rollback: each must read
 * what the other writes.
 */
class JobRecordTest {

    /** A finished job as the release before finishedAs and runScheduledAt wrote it. */
    @Test
    void aRecordOfAnEarlierReleaseDecodesWithoutTheFieldsAddedSince() {
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
        assertNull(r.finishedAs, "not kept then");
        assertNull(r.runScheduledAt);
        assertNull(r.finishedBy);
        assertNull(r.activity);
    }

    @Test
    void aRecordOfTheReleaseBeforeTheFinishNonceDecodesWithoutIt() {
        JobRecord r = running();
        r.finishedAs = JobResult.FAILED;
        r.runScheduledAt = 3L;
        Tuple written = Tuple.fromBytes(r.encode());
        byte[] stored = Tuple.fromList(written.getItems().subList(0, 27)).pack();

        JobRecord back = JobRecord.decode("email", "a", stored);

        assertEquals(JobResult.FAILED, back.finishedAs);
        assertEquals(3L, back.runScheduledAt);
        assertNull(back.finishedBy);
    }

    /**
     * The earlier release reads a record by position up to the activity stamp, and refuses any
     * format but 1: what this release adds comes after the stamp, under the same format.
     */
    @Test
    void anEarlierReleaseFindsItsFieldsWhereItLooksForThem() {
        JobRecord r = running();
        r.finishedAs = JobResult.FAILED;
        r.runScheduledAt = 3L;

        Tuple written = Tuple.fromBytes(r.encode());

        assertEquals(1L, written.getLong(0), "the format an earlier release accepts");
        assertEquals("lease-9", written.getString(18));
        assertEquals(r.activity, written.getVersionstamp(24));
    }

    @Test
    void aRecordReadsBackWholeWithTheFieldsAddedSince() {
        JobRecord r = running();
        r.finishedLease = "lease-2";
        r.finishedAs = JobResult.FAILED;
        r.runScheduledAt = 3L;
        r.finishedBy = "nonce-1";
        r.lastError = "boom";

        JobRecord back = JobRecord.decode("email", "a", r.encode());

        assertEquals(JobResult.FAILED, back.finishedAs);
        assertEquals(3L, back.runScheduledAt);
        assertEquals("nonce-1", back.finishedBy);
        assertEquals("lease-2", back.finishedLease);
        assertEquals(r.activity, back.activity);
        assertEquals(r.view(), back.view());
    }

    /** The dependencies sit in one nested tuple at 29: absent (or null) reads as none. */
    @Test
    void dependenciesReadBackWholeAndARecordWithoutThemHasNone() {
        JobRecord r = running();
        r.after = List.of(new JobRef("extract", "a"), new JobRef("extract", "b"));
        r.waitingFor = List.of(new JobRef("extract", "b"));
        r.runAfterFailure = true;
        r.blockedBy = new JobRef("extract", "c");

        Tuple written = Tuple.fromBytes(r.encode());
        JobRecord back = JobRecord.decode("email", "a", r.encode());

        assertEquals(r.after, back.after);
        assertEquals(r.waitingFor, back.waitingFor);
        assertTrue(back.runAfterFailure);
        assertEquals(r.blockedBy, back.blockedBy);
        assertEquals(r.view(), back.view());
        assertEquals(32, written.size(), "dependencies at 29, the permits held and the last change's nonce after them");
        JobRecord before = JobRecord.decode("email", "a", Tuple.fromList(written.getItems().subList(0, 29)).pack());
        assertEquals(List.of(), before.after);
        assertEquals(List.of(), before.waitingFor);
        assertNull(Tuple.fromBytes(running().encode()).get(29), "a job without dependencies stores a null");
    }

    /** The permits a running job holds come after every earlier field; a record without them holds none. */
    @Test
    void heldSlotsReadBackAndAreAbsentInEarlierRecords() {
        JobRecord r = running();
        r.slots = new HeldSlots(3L, "tenant-7", 1L);
        Tuple written = Tuple.fromBytes(r.encode());
        assertEquals(32, written.size(), "the slots at 30");

        assertEquals(new HeldSlots(3L, "tenant-7", 1L), JobRecord.decode("email", "a", r.encode()).slots);
        assertNull(JobRecord.decode("email", "a", Tuple.fromList(written.getItems().subList(0, 30)).pack()).slots);
        r.slots = null;
        assertNull(JobRecord.decode("email", "a", r.encode()).slots);
    }

    /** The nonce of the last add or resubmit that changed the job comes last; records before it have none. */
    @Test
    void theLastChangesNonceReadsBackAndIsAbsentInEarlierRecords() {
        JobRecord r = running();
        r.changedBy = "nonce-7";
        Tuple written = Tuple.fromBytes(r.encode());
        assertEquals("nonce-7", written.getString(31), "the last element, at 31");

        assertEquals("nonce-7", JobRecord.decode("email", "a", r.encode()).changedBy);
        assertNull(JobRecord.decode("email", "a", Tuple.fromList(written.getItems().subList(0, 31)).pack()).changedBy);
        r.changedBy = null;
        assertNull(JobRecord.decode("email", "a", r.encode()).changedBy);
    }

    private static JobRecord running() {
        JobRecord r = new JobRecord("email", "a");
        r.state = JobState.RUNNING;
        r.priority = Priority.HIGH;
        r.scheduledAt = 5;
        r.lease = "lease-9";
        r.activity = Versionstamp.complete(new byte[] {0, 0, 0, 0, 0, 0, 0, 1, 0, 2}, 7);
        return r;
    }
}
