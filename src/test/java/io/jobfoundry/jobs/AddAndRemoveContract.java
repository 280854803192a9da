package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.jobfoundry.jobs.background.OutcomeRetention;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.DataTooLargeException;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobConflictException;
import io.jobfoundry.jobs.model.JobNotFoundException;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.repeat.RepeatException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Adding, changing and removing jobs: couch_jobs add / get / remove, patch, cancel and resubmit, and the outcomes kept for retries.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it.
 */
public interface AddAndRemoveContract extends EngineFixture {


    @Test
    default void aNewJobIsPendingAndDueAtOnce() {
        Added added = engine().put("email", "welcome-42", JobChanges.NONE.withData("{\"to\":\"a@example.org\"}"));
        assertTrue(added.created());
        Job job = added.job();
        assertEquals(JobState.PENDING, job.state());
        assertNull(job.result());
        assertEquals("{\"to\":\"a@example.org\"}", job.data());
        assertEquals("", job.group());
        assertEquals(Priority.LOW, job.priority());
        assertEquals(START, job.scheduledAt());
        assertEquals(START, job.createdAt());
        assertEquals(TypeSettings.DEFAULT.maxAttempts(), job.maxAttempts());
        assertEquals(job, engine().get("email", "welcome-42").orElseThrow());
        Counts counts = engine().type("email").orElseThrow().counts();
        assertEquals(1, counts.pending());
        assertEquals(1, counts.due());
    }

    @Test
    default void createGeneratesDistinctIds() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            Added added = engine().create("email", JobChanges.NONE);
            assertTrue(added.created());
            ids.add(added.job().id());
        }
        assertEquals(20, ids.size());
    }

    @Test
    default void addingAPendingJobAgainUpdatesItsFieldsAndSchedule() {
        add("email", "a");
        Instant later = START.plusSeconds(60);
        Added again = engine().put("email", "a", JobChanges.NONE.withData("{\"v\":2}").withScheduledAt(later));
        assertFalse(again.created());
        assertEquals("{\"v\":2}", again.job().data());
        assertEquals(later, again.job().scheduledAt());
        assertTrue(accept("email", 1).isEmpty(), "rescheduled into the future: not due");
        assertEquals(1, engine().type("email").orElseThrow().counts().pending());
        assertEquals(0, engine().type("email").orElseThrow().counts().due());
    }

    @Test
    default void addingARunningJobFlagsItToRunAgainWhenItFinishes() {
        add("email", "a");
        LeasedJob first = acceptOne("email");
        Added again = add("email", "a");
        assertFalse(again.created());
        assertTrue(again.job().resubmit());
        assertEquals(JobState.RUNNING, again.job().state());
        Job finished = finish(first, true);
        assertEquals(JobState.PENDING, finished.state());
        assertFalse(finished.resubmit());
        LeasedJob second = acceptOne("email");
        assertNotEquals(first.lease(), second.lease());
        assertEquals(JobResult.SUCCEEDED, finish(second, true).result());
    }

    @Test
    default void addingARunningJobWithATimeAndGroupAppliesThemToItsNextRun() {
        add("email", "a");
        LeasedJob first = acceptOne("email");
        Instant later = START.plusSeconds(120);
        Added again = engine().put("email", "a", JobChanges.NONE.withScheduledAt(later).withGroup("next"));
        assertTrue(again.job().resubmit());
        Job after = finish(first, true);
        assertEquals(JobState.PENDING, after.state());
        assertEquals(later, after.scheduledAt());
        assertEquals("next", after.group());
        assertTrue(accept("email", 1).isEmpty(), "not before the time given with the add");
    }

    @Test
    default void processorCallsWithoutALeaseAreRefusedAndChangeNothing() {
        add("email", "a");
        acceptOne("email");
        assertEquals("lease", assertThrows(InvalidJobRequestException.class,
                () -> engine().finish("email", "a", null, true, Change.keep(), null)).field());
        assertEquals("lease", assertThrows(InvalidJobRequestException.class,
                () -> engine().heartbeat("email", "a", "", Change.keep())).field());
        assertEquals(JobState.RUNNING, engine().get("email", "a").orElseThrow().state());
    }

    @Test
    default void addingAFinishedJobEnqueuesItAgain() {
        add("email", "a");
        finish(acceptOne("email"), true);
        Added again = add("email", "a");
        assertFalse(again.created());
        assertEquals(JobState.PENDING, again.job().state());
        assertNull(again.job().result());
        assertEquals(0, engine().type("email").orElseThrow().counts().succeeded());
        acceptOne("email");
    }

    /** Accepts and removals leave outcome records for their own retries; retention forgets the old. */
    @Test
    default void outcomeRetentionForgetsOutcomesOlderThanItsWindowAndKeepsTheRecentOnes() {
        removeJobs(OLD_OUTCOMES);
        clock().advance(Duration.ofMinutes(10));
        add("email", "f");
        acceptOne("email");
        assertEquals(OLD_OUTCOMES + 1, outcomeRecords());

        new OutcomeRetention(engine().context(), 2).runOnce();
        assertEquals(OLD_OUTCOMES + 1, outcomeRecords(), "none is older than the window yet");

        clock().advance(OutcomeRetention.KEPT.minus(Duration.ofMinutes(5)));
        AtomicInteger fullSteps = new AtomicInteger();
        new OutcomeRetention(engine().context(), 2).runOnce(() -> {
            fullSteps.incrementAndGet(); // asked after each full step
            return false;
        });
        assertEquals(1, outcomeRecords(), "the accept's outcome is 10 minutes old");
        // Eleven old outcomes in steps of 2. A step retried after its commit was reported unknown,
        // though it landed, clears the next two as well: a run counts fewer full steps then, but
        // only five such faults in a row could leave it none.
        assertTrue(fullSteps.get() >= 1, "one transaction cleared them all");

        clock().advance(Duration.ofMinutes(5));
        new OutcomeRetention(engine().context()).runOnce();
        assertEquals(1, outcomeRecords(), "exactly as old as the window: kept");
        clock().advance(Duration.ofNanos(1_000));
        new OutcomeRetention(engine().context()).runOnce();
        assertEquals(0, outcomeRecords());
    }

    /** A shutdown stops a long retention run between two steps; the next run clears the rest. */
    @Test
    default void outcomeRetentionStandsDownBetweenStepsWhenAsked() {
        removeJobs(OLD_OUTCOMES);
        clock().advance(OutcomeRetention.KEPT.plusMinutes(1));
        AtomicInteger asked = new AtomicInteger();
        new OutcomeRetention(engine().context(), 2).runOnce(() -> {
            asked.incrementAndGet();
            return true; // a shutdown began
        });
        assertEquals(1, asked.get(), "asked once, after the first step");
        // One step of 2; a retried step whose earlier commits did land clears 2 more for each.
        int left = outcomeRecords();
        assertTrue(left > 0 && left < OLD_OUTCOMES, "one step cleared, not every outcome: " + left + " left");

        new OutcomeRetention(engine().context(), 2).runOnce(() -> false);
        assertEquals(0, outcomeRecords());
    }

    /** Old outcomes for the retention tests: removals leave one each. */
    int OLD_OUTCOMES = 11;

    private void removeJobs(int count) {
        for (int i = 0; i < count; i++) {
            add("email", "gone-" + i);
            engine().remove("email", "gone-" + i);
        }
    }

    private int outcomeRecords() {
        return engine().context().runner()
                .run(tx -> tx.getRange(JobKeys.outcomesBegin(), JobKeys.outcomesEnd(), 0)).size();
    }

    @Test
    default void removingAJobLeavesNoTraceAndHaltsItsProcessor() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        engine().remove("email", "a");
        assertTrue(engine().get("email", "a").isEmpty());
        HaltException halt = assertThrows(HaltException.class,
                () -> engine().heartbeat("email", "a", leased.lease(), Change.keep()));
        assertEquals(HaltReason.REMOVED, halt.reason());
        assertThrows(JobNotFoundException.class, () -> engine().remove("email", "a"));
        assertEquals(new Counts(0, 0, 0, 0, 0, 0), engine().type("email").orElseThrow().counts());
    }

    /** A PUT that changes nothing (a client's retry) writes nothing: same revision, same updatedAt. */
    @Test
    default void addingAPendingJobAgainUnchangedWritesNothing() {
        JobChanges same = JobChanges.NONE.withData("{\"n\":1}").withScheduledAt(START.plusSeconds(60));
        Job first = engine().put("email", "a", same).job();
        clock().advance(Duration.ofSeconds(5));
        Job again = engine().put("email", "a", same).job();
        assertEquals(first, again, "the same revision and updatedAt, 5 s later");
        Job changed = engine().put("email", "a", same.withData("{\"n\":2}")).job();
        assertNotEquals(first.revision(), changed.revision());
        assertEquals(START.plusSeconds(5), changed.updatedAt());
        assertEquals(START.plusSeconds(60), changed.scheduledAt());
        assertEquals(1, engine().type("email").orElseThrow().counts().pending(), "still once in the index");
    }

    /** As a PUT: a PATCH with nothing new ({}, values the job has) is no change, pending or running. */
    @Test
    default void aPatchThatChangesNothingWritesNothing() {
        Job first = engine().put("email", "a", JobChanges.NONE.withPriority(Priority.HIGH).withGroup("t7")).job();
        clock().advance(Duration.ofSeconds(5));
        assertEquals(first, engine().patch("email", "a", JobChanges.NONE));
        assertEquals(first, engine().patch("email", "a", JobChanges.NONE.withPriority(Priority.HIGH).withGroup("t7")));
        Job changed = engine().patch("email", "a", JobChanges.NONE.withPriority(Priority.LOW));
        assertEquals(first.revision() + 1, changed.revision());
        assertEquals(START.plusSeconds(5), changed.updatedAt());

        Job running = acceptOne("email").job();
        clock().advance(Duration.ofSeconds(5));
        assertEquals(running, engine().patch("email", "a", JobChanges.NONE.withMaxAttempts(running.maxAttempts())));
        assertEquals(running.revision() + 1, engine().patch("email", "a", JobChanges.NONE.withMaxAttempts(3)).revision());
    }

    /** ...but a job whose time has come and that still waits for the due waker is made ready by it. */
    @Test
    default void addingAnUnchangedJobThatHasBecomeDueMakesItReady() {
        JobChanges same = JobChanges.NONE.withScheduledAt(START.plusSeconds(60));
        engine().put("email", "a", same);
        clock().advance(Duration.ofSeconds(61)); // the due waker has not run
        assertTrue(accept("email", 1).isEmpty());
        engine().put("email", "a", same);
        assertEquals("a", acceptOne("email").job().id());
    }

    @Test
    default void badNamesAndValuesAreRefusedBeforeAnythingChanges() {
        assertThrows(InvalidJobRequestException.class, () -> add("bad type", "a"));
        assertThrows(InvalidJobRequestException.class, () -> add("email", "a/b"));
        assertThrows(InvalidJobRequestException.class, () -> add("email", "x".repeat(257)));
        assertThrows(InvalidJobRequestException.class, () -> add("email", "."));
        assertThrows(InvalidJobRequestException.class, () -> add("email", ".."));
        assertThrows(InvalidJobRequestException.class, () -> engine().put("email", "a", JobChanges.NONE.withMaxAttempts(0)));
        assertThrows(RepeatException.class, () -> engine().put("email", "a", JobChanges.NONE.withRepeat("FINISHED")));
        assertThrows(DataTooLargeException.class,
                () -> engine().put("email", "a", JobChanges.NONE.withData("\"" + "x".repeat(70_000) + "\"")));
        assertTrue(engine().get("email", "a").isEmpty());
    }


    @Test
    default void cancellingAPendingJobFinishesIt() {
        add("email", "a");
        Job cancelled = engine().cancel("email", "a");
        assertEquals(JobState.FINISHED, cancelled.state());
        assertEquals(JobResult.CANCELLED, cancelled.result());
        assertTrue(accept("email", 1).isEmpty());
        assertEquals(cancelled, engine().cancel("email", "a"), "cancelling a finished job changes nothing");
    }

    @Test
    default void cancellingARunningJobHaltsItsProcessorsNextCallAndEndsIt() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        Job requested = engine().cancel("email", "a");
        assertEquals(JobState.RUNNING, requested.state());
        HaltException halt = assertThrows(HaltException.class,
                () -> engine().heartbeat("email", "a", leased.lease(), Change.keep()));
        assertEquals(HaltReason.CANCELLED, halt.reason());
        Job job = engine().get("email", "a").orElseThrow();
        assertEquals(JobResult.CANCELLED, job.result());
        assertEquals(HaltReason.CANCELLED, assertThrows(HaltException.class,
                () -> finish(leased, true)).reason(), "later calls keep hearing why");
        assertEquals(1, engine().type("email").orElseThrow().counts().cancelled());
    }

    /** The latest word wins: an add after a cancel still stops the run, and the job runs again. */
    @Test
    default void anAddAfterACancelOfARunningJobStopsTheRunButNotTheJob() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        engine().cancel("email", "a");
        assertTrue(engine().put("email", "a", JobChanges.NONE).job().resubmit());
        assertEquals(HaltReason.CANCELLED, assertThrows(HaltException.class,
                () -> engine().heartbeat("email", "a", leased.lease(), Change.keep())).reason());
        Job job = engine().get("email", "a").orElseThrow();
        assertEquals(JobState.PENDING, job.state());
        assertFalse(job.resubmit());
        LeasedJob again = acceptOne("email");
        assertNotEquals(leased.lease(), again.lease());
        assertEquals(0, engine().type("email").orElseThrow().counts().cancelled());

        // A cancel after the resubmit: cancelled after all, though a cancel was already asked for.
        engine().cancel("email", "a");
        engine().resubmit("email", "a", null, null);
        engine().cancel("email", "a");
        assertEquals(HaltReason.CANCELLED, assertThrows(HaltException.class, () -> finish(again, true)).reason());
        assertEquals(JobResult.CANCELLED, engine().get("email", "a").orElseThrow().result());
    }

    /** A processor resubmitting its own job is a processor's call: after a cancel, it is told so. */
    @Test
    default void aProcessorsResubmitAfterACancelIsHaltedAndTheJobEndsCancelled() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        engine().cancel("email", "a");
        assertEquals(HaltReason.CANCELLED, assertThrows(HaltException.class,
                () -> engine().resubmit("email", "a", null, leased.lease())).reason());
        Job job = engine().get("email", "a").orElseThrow();
        assertEquals(JobState.FINISHED, job.state());
        assertEquals(JobResult.CANCELLED, job.result());
        assertTrue(accept("email", 1).isEmpty());
    }

    @Test
    default void resubmitMovesAPendingJobAndRestartsAFinishedOne() {
        add("email", "a");
        Job moved = engine().resubmit("email", "a", START.plusSeconds(30), null);
        assertEquals(START.plusSeconds(30), moved.scheduledAt());
        clock().advance(Duration.ofSeconds(30));
        waker().runOnce();
        finish(acceptOne("email"), true);
        Job again = engine().resubmit("email", "a", null, null);
        assertEquals(JobState.PENDING, again.state());
        acceptOne("email");
    }

    @Test
    default void aProcessorMayResubmitItsOwnJobWithItsLease() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        assertThrows(HaltException.class, () -> engine().resubmit("email", "a", null, "stale"));
        assertTrue(engine().resubmit("email", "a", null, leased.lease()).resubmit());
        assertEquals(JobState.PENDING, finish(leased, true).state());
    }

    @Test
    default void patchChangesWhatTheStateAllows() {
        add("email", "a");
        Job patched = engine().patch("email", "a", JobChanges.NONE.withPriority(Priority.HIGH).withGroup("t7"));
        assertEquals(Priority.HIGH, patched.priority());
        assertEquals("t7", patched.group());
        acceptOne("email");
        JobConflictException conflict = assertThrows(JobConflictException.class,
                () -> engine().patch("email", "a", JobChanges.NONE.withData("{}")));
        assertEquals(JobState.RUNNING, conflict.state());
        assertEquals(7, engine().patch("email", "a", JobChanges.NONE.withMaxAttempts(7)).maxAttempts());
        assertThrows(JobNotFoundException.class, () -> engine().patch("email", "nope", JobChanges.NONE));
    }
}
