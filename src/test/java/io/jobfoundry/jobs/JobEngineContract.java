package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.Futures;
import io.jobfoundry.jobs.accept.Accepting;
import io.jobfoundry.jobs.accept.HandOff;
import io.jobfoundry.jobs.accept.Waiters;
import io.jobfoundry.jobs.background.ActivityMonitor;
import io.jobfoundry.jobs.background.DueWaker;
import io.jobfoundry.jobs.background.OutcomeRetention;
import io.jobfoundry.jobs.background.ShrinkingBatches;
import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.context.JobObserver;
import io.jobfoundry.jobs.model.AcceptRequest;
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
import io.jobfoundry.jobs.model.JobEvent;
import io.jobfoundry.jobs.model.JobNotFoundException;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.records.RecordSurgery;
import io.jobfoundry.jobs.records.Times;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.repeat.RepeatException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's behaviour on any store (River's driver suite): each backend's class only supplies
 * the store, and the whole suite runs again with injected retryable faults. Time is a mutable
 * clock; monitors run by {@code runOnce()}.
 */
public abstract class JobEngineContract {

    protected static final Instant START = Instant.parse("2026-11-21T10:00:00Z");
    private static final long EVENT_SECONDS = 10;

    protected KvStore store;
    protected MutableClock clock;
    protected JobEngine engine;
    protected ActivityMonitor activity;
    protected DueWaker waker;
    protected JobWaits waits;
    private ScheduledExecutorService pool;

    protected abstract KvStore openStore() throws Exception;

    protected void discardStore(KvStore store) throws Exception {
        store.close();
    }

    @BeforeEach
    void start() throws Exception {
        store = openStore();
        clock = new MutableClock(START);
        EngineContext context = new EngineContext(new TransactionRunner(store, RetryPolicy.DEFAULT), clock, JobObserver.NONE);
        Accepting accepting = new Accepting(context, EngineOptions.DEFAULT);
        pool = Executors.newScheduledThreadPool(2);
        waits = new JobWaits(accepting, pool, pool);
        engine = new JobEngine(context, EngineOptions.DEFAULT, accepting, waits);
        activity = new ActivityMonitor(context);
        waker = new DueWaker(context);
    }

    @AfterEach
    void stop() throws Exception {
        waits.close();
        pool.shutdownNow();
        discardStore(store);
    }

    protected Added add(String type, String id) {
        return engine.put(type, id, JobChanges.NONE);
    }

    protected LeasedJob acceptOne(String type) {
        List<LeasedJob> jobs = engine.accept(new AcceptRequest(List.of(type), 1, null, "worker-1"));
        assertEquals(1, jobs.size(), "expected one job of " + type);
        return jobs.get(0);
    }

    protected List<LeasedJob> accept(String type, int max) {
        return engine.accept(new AcceptRequest(List.of(type), max, null, "worker-1"));
    }

    protected Job finish(LeasedJob leased, boolean succeeded) {
        return engine.finish(leased.job().type(), leased.job().id(), leased.lease(), succeeded, Change.keep(),
                succeeded ? null : "it broke");
    }

    // ---- couch_jobs add / get / remove ----------------------------------------------------------

    @Test
    void aNewJobIsPendingAndDueAtOnce() {
        Added added = engine.put("email", "welcome-42", JobChanges.NONE.withData("{\"to\":\"a@example.org\"}"));
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
        assertEquals(job, engine.get("email", "welcome-42").orElseThrow());
        Counts counts = engine.type("email").orElseThrow().counts();
        assertEquals(1, counts.pending());
        assertEquals(1, counts.due());
    }

    @Test
    void createGeneratesDistinctIds() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            Added added = engine.create("email", JobChanges.NONE);
            assertTrue(added.created());
            ids.add(added.job().id());
        }
        assertEquals(20, ids.size());
    }

    @Test
    void addingAPendingJobAgainUpdatesItsFieldsAndSchedule() {
        add("email", "a");
        Instant later = START.plusSeconds(60);
        Added again = engine.put("email", "a", JobChanges.NONE.withData("{\"v\":2}").withScheduledAt(later));
        assertFalse(again.created());
        assertEquals("{\"v\":2}", again.job().data());
        assertEquals(later, again.job().scheduledAt());
        assertTrue(accept("email", 1).isEmpty(), "rescheduled into the future: not due");
        assertEquals(1, engine.type("email").orElseThrow().counts().pending());
        assertEquals(0, engine.type("email").orElseThrow().counts().due());
    }

    @Test
    void addingARunningJobFlagsItToRunAgainWhenItFinishes() {
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
    void addingARunningJobWithATimeAndGroupAppliesThemToItsNextRun() {
        add("email", "a");
        LeasedJob first = acceptOne("email");
        Instant later = START.plusSeconds(120);
        Added again = engine.put("email", "a", JobChanges.NONE.withScheduledAt(later).withGroup("next"));
        assertTrue(again.job().resubmit());
        Job after = finish(first, true);
        assertEquals(JobState.PENDING, after.state());
        assertEquals(later, after.scheduledAt());
        assertEquals("next", after.group());
        assertTrue(accept("email", 1).isEmpty(), "not before the time given with the add");
    }

    @Test
    void processorCallsWithoutALeaseAreRefusedAndChangeNothing() {
        add("email", "a");
        acceptOne("email");
        assertEquals("lease", assertThrows(InvalidJobRequestException.class,
                () -> engine.finish("email", "a", null, true, Change.keep(), null)).field());
        assertEquals("lease", assertThrows(InvalidJobRequestException.class,
                () -> engine.heartbeat("email", "a", "", Change.keep())).field());
        assertEquals(JobState.RUNNING, engine.get("email", "a").orElseThrow().state());
    }

    @Test
    void addingAFinishedJobEnqueuesItAgain() {
        add("email", "a");
        finish(acceptOne("email"), true);
        Added again = add("email", "a");
        assertFalse(again.created());
        assertEquals(JobState.PENDING, again.job().state());
        assertNull(again.job().result());
        assertEquals(0, engine.type("email").orElseThrow().counts().succeeded());
        acceptOne("email");
    }

    /** Accepts and removals leave outcome records for their own retries; retention forgets the old. */
    @Test
    void outcomeRetentionForgetsOutcomesOlderThanItsWindowAndKeepsTheRecentOnes() {
        removeJobs(OLD_OUTCOMES);
        clock.advance(Duration.ofMinutes(10));
        add("email", "f");
        acceptOne("email");
        assertEquals(OLD_OUTCOMES + 1, outcomeRecords());

        new OutcomeRetention(engine.context(), 2).runOnce();
        assertEquals(OLD_OUTCOMES + 1, outcomeRecords(), "none is older than the window yet");

        clock.advance(OutcomeRetention.KEPT.minus(Duration.ofMinutes(5)));
        AtomicInteger fullSteps = new AtomicInteger();
        new OutcomeRetention(engine.context(), 2).runOnce(() -> {
            fullSteps.incrementAndGet(); // asked after each full step
            return false;
        });
        assertEquals(1, outcomeRecords(), "the accept's outcome is 10 minutes old");
        // Eleven old outcomes in steps of 2. A step retried after its commit was reported unknown,
        // though it landed, clears the next two as well: a run counts fewer full steps then, but
        // only five such faults in a row could leave it none.
        assertTrue(fullSteps.get() >= 1, "one transaction cleared them all");

        clock.advance(Duration.ofMinutes(5));
        new OutcomeRetention(engine.context()).runOnce();
        assertEquals(1, outcomeRecords(), "exactly as old as the window: kept");
        clock.advance(Duration.ofNanos(1_000));
        new OutcomeRetention(engine.context()).runOnce();
        assertEquals(0, outcomeRecords());
    }

    /** A shutdown stops a long retention run between two steps; the next run clears the rest. */
    @Test
    void outcomeRetentionStandsDownBetweenStepsWhenAsked() {
        removeJobs(OLD_OUTCOMES);
        clock.advance(OutcomeRetention.KEPT.plusMinutes(1));
        AtomicInteger asked = new AtomicInteger();
        new OutcomeRetention(engine.context(), 2).runOnce(() -> {
            asked.incrementAndGet();
            return true; // a shutdown began
        });
        assertEquals(1, asked.get(), "asked once, after the first step");
        // One step of 2; a retried step whose earlier commits did land clears 2 more for each.
        int left = outcomeRecords();
        assertTrue(left > 0 && left < OLD_OUTCOMES, "one step cleared, not every outcome: " + left + " left");

        new OutcomeRetention(engine.context(), 2).runOnce(() -> false);
        assertEquals(0, outcomeRecords());
    }

    /** Old outcomes for the retention tests: removals leave one each. */
    private static final int OLD_OUTCOMES = 11;

    private void removeJobs(int count) {
        for (int i = 0; i < count; i++) {
            add("email", "gone-" + i);
            engine.remove("email", "gone-" + i);
        }
    }

    private int outcomeRecords() {
        return engine.context().runner().run(tx -> tx.getRange(JobKeys.outcomesBegin(), JobKeys.end(Tuple.from("o")), 0)).size();
    }

    @Test
    void removingAJobLeavesNoTraceAndHaltsItsProcessor() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        engine.remove("email", "a");
        assertTrue(engine.get("email", "a").isEmpty());
        HaltException halt = assertThrows(HaltException.class,
                () -> engine.heartbeat("email", "a", leased.lease(), Change.keep()));
        assertEquals(HaltReason.REMOVED, halt.reason());
        assertThrows(JobNotFoundException.class, () -> engine.remove("email", "a"));
        assertEquals(new Counts(0, 0, 0, 0, 0, 0), engine.type("email").orElseThrow().counts());
    }

    /** A PUT that changes nothing (a client's retry) writes nothing: same revision, same updatedAt. */
    @Test
    void addingAPendingJobAgainUnchangedWritesNothing() {
        JobChanges same = JobChanges.NONE.withData("{\"n\":1}").withScheduledAt(START.plusSeconds(60));
        Job first = engine.put("email", "a", same).job();
        clock.advance(Duration.ofSeconds(5));
        Job again = engine.put("email", "a", same).job();
        assertEquals(first, again, "the same revision and updatedAt, 5 s later");
        Job changed = engine.put("email", "a", same.withData("{\"n\":2}")).job();
        assertNotEquals(first.revision(), changed.revision());
        assertEquals(START.plusSeconds(5), changed.updatedAt());
        assertEquals(START.plusSeconds(60), changed.scheduledAt());
        assertEquals(1, engine.type("email").orElseThrow().counts().pending(), "still once in the index");
    }

    /** ...but a job whose time has come and that still waits for the due waker is made ready by it. */
    @Test
    void addingAnUnchangedJobThatHasBecomeDueMakesItReady() {
        JobChanges same = JobChanges.NONE.withScheduledAt(START.plusSeconds(60));
        engine.put("email", "a", same);
        clock.advance(Duration.ofSeconds(61)); // the due waker has not run
        assertTrue(accept("email", 1).isEmpty());
        engine.put("email", "a", same);
        assertEquals("a", acceptOne("email").job().id());
    }

    @Test
    void badNamesAndValuesAreRefusedBeforeAnythingChanges() {
        assertThrows(InvalidJobRequestException.class, () -> add("bad type", "a"));
        assertThrows(InvalidJobRequestException.class, () -> add("email", "a/b"));
        assertThrows(InvalidJobRequestException.class, () -> add("email", "x".repeat(257)));
        assertThrows(InvalidJobRequestException.class, () -> add("email", "."));
        assertThrows(InvalidJobRequestException.class, () -> add("email", ".."));
        assertThrows(InvalidJobRequestException.class, () -> engine.put("email", "a", JobChanges.NONE.withMaxAttempts(0)));
        assertThrows(RepeatException.class, () -> engine.put("email", "a", JobChanges.NONE.withRepeat("FINISHED")));
        assertThrows(DataTooLargeException.class,
                () -> engine.put("email", "a", JobChanges.NONE.withData("\"" + "x".repeat(70_000) + "\"")));
        assertTrue(engine.get("email", "a").isEmpty());
    }

    // ---- accept, heartbeat, finish --------------------------------------------------------------

    @Test
    void acceptLeasesAJobToOneProcessorOnly() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        assertEquals(JobState.RUNNING, leased.job().state());
        assertEquals(START, leased.job().startedAt());
        assertEquals("worker-1", leased.job().worker());
        assertTrue(accept("email", 5).isEmpty());
        assertEquals(1, engine.type("email").orElseThrow().counts().running());
    }

    @Test
    void acceptHandsOutOldestScheduledFirstUpToMax() {
        engine.put("email", "late", JobChanges.NONE.withScheduledAt(START.minusSeconds(10)));
        engine.put("email", "early", JobChanges.NONE.withScheduledAt(START.minusSeconds(30)));
        engine.put("email", "middle", JobChanges.NONE.withScheduledAt(START.minusSeconds(20)));
        List<String> ids = accept("email", 10).stream().map(l -> l.job().id()).toList();
        assertEquals(List.of("early", "middle", "late"), ids);
    }

    @Test
    void acceptByGlobAndRespectingMaxScheduledAt() {
        engine.put("CheckLiveness", "a", JobChanges.NONE.withScheduledAt(START.minusSeconds(60)));
        engine.put("CheckDisk", "b", JobChanges.NONE);
        engine.put("Other", "c", JobChanges.NONE);
        List<LeasedJob> early = engine.accept(new AcceptRequest(List.of("Check*"), 10, START.minusSeconds(30), null));
        assertEquals(List.of("a"), early.stream().map(l -> l.job().id()).toList());
        List<LeasedJob> rest = engine.accept(new AcceptRequest(List.of("Check?isk", "Ch*"), 10, null, null));
        assertEquals(List.of("b"), rest.stream().map(l -> l.job().id()).toList());
    }

    /**
     * The ready index holds only jobs that are due, by the clock of whoever placed them: an accept
     * must not weigh them against its own. A replica whose clock lags (or an accept that read the
     * clock just before a concurrent add read it) used to pass them over, and, having found none,
     * wait out its whole wait on a watch that had already seen the job.
     */
    @Test
    void aReadyJobIsTakenByAnAcceptWhoseClockIsBehind() {
        add("email", "a");
        JobEngine lagging = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT),
                new MutableClock(START.minusSeconds(1)), EngineOptions.DEFAULT);

        List<LeasedJob> taken = lagging.accept(new AcceptRequest(List.of("email"), 1, null, null));

        assertEquals(List.of("a"), taken.stream().map(l -> l.job().id()).toList());
    }

    @Test
    void heartbeatRenewsAndMayReplaceData() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        Job beat = engine.heartbeat("email", "a", leased.lease(), Change.to("{\"progress\":50}"));
        assertEquals("{\"progress\":50}", beat.data());
        assertEquals("{\"progress\":50}", engine.get("email", "a").orElseThrow().data());
        HaltException wrong = assertThrows(HaltException.class,
                () -> engine.heartbeat("email", "a", "not-the-lease", Change.keep()));
        assertEquals(HaltReason.LEASE_LOST, wrong.reason());
    }

    @Test
    void finishingSucceededEndsTheJobAndTheLease() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        clock.advance(Duration.ofSeconds(3));
        Job done = engine.finish("email", "a", leased.lease(), true, Change.to("{\"sent\":true}"), null);
        assertEquals(JobState.FINISHED, done.state());
        assertEquals(JobResult.SUCCEEDED, done.result());
        assertEquals(START.plusSeconds(3), done.finishedAt());
        assertEquals("{\"sent\":true}", done.data());
        assertNull(done.worker());
        assertEquals(1, engine.type("email").orElseThrow().counts().succeeded());
        assertEquals(0, engine.type("email").orElseThrow().counts().running());
        assertThrows(HaltException.class, () -> engine.heartbeat("email", "a", leased.lease(), Change.keep()));
    }

    // ---- cancel and resubmit ----------------------------------------------------------------------

    @Test
    void cancellingAPendingJobFinishesIt() {
        add("email", "a");
        Job cancelled = engine.cancel("email", "a");
        assertEquals(JobState.FINISHED, cancelled.state());
        assertEquals(JobResult.CANCELLED, cancelled.result());
        assertTrue(accept("email", 1).isEmpty());
        assertEquals(cancelled, engine.cancel("email", "a"), "cancelling a finished job changes nothing");
    }

    @Test
    void cancellingARunningJobHaltsItsProcessorsNextCallAndEndsIt() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        Job requested = engine.cancel("email", "a");
        assertEquals(JobState.RUNNING, requested.state());
        HaltException halt = assertThrows(HaltException.class,
                () -> engine.heartbeat("email", "a", leased.lease(), Change.keep()));
        assertEquals(HaltReason.CANCELLED, halt.reason());
        Job job = engine.get("email", "a").orElseThrow();
        assertEquals(JobResult.CANCELLED, job.result());
        assertEquals(HaltReason.CANCELLED, assertThrows(HaltException.class,
                () -> finish(leased, true)).reason(), "later calls keep hearing why");
        assertEquals(1, engine.type("email").orElseThrow().counts().cancelled());
    }

    /** The latest word wins: an add after a cancel still stops the run, and the job runs again. */
    @Test
    void anAddAfterACancelOfARunningJobStopsTheRunButNotTheJob() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        engine.cancel("email", "a");
        assertTrue(engine.put("email", "a", JobChanges.NONE).job().resubmit());
        assertEquals(HaltReason.CANCELLED, assertThrows(HaltException.class,
                () -> engine.heartbeat("email", "a", leased.lease(), Change.keep())).reason());
        Job job = engine.get("email", "a").orElseThrow();
        assertEquals(JobState.PENDING, job.state());
        assertFalse(job.resubmit());
        LeasedJob again = acceptOne("email");
        assertNotEquals(leased.lease(), again.lease());
        assertEquals(0, engine.type("email").orElseThrow().counts().cancelled());

        // A cancel after the resubmit: cancelled after all, though a cancel was already asked for.
        engine.cancel("email", "a");
        engine.resubmit("email", "a", null, null);
        engine.cancel("email", "a");
        assertEquals(HaltReason.CANCELLED, assertThrows(HaltException.class, () -> finish(again, true)).reason());
        assertEquals(JobResult.CANCELLED, engine.get("email", "a").orElseThrow().result());
    }

    /** A processor resubmitting its own job is a processor's call: after a cancel, it is told so. */
    @Test
    void aProcessorsResubmitAfterACancelIsHaltedAndTheJobEndsCancelled() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        engine.cancel("email", "a");
        assertEquals(HaltReason.CANCELLED, assertThrows(HaltException.class,
                () -> engine.resubmit("email", "a", null, leased.lease())).reason());
        Job job = engine.get("email", "a").orElseThrow();
        assertEquals(JobState.FINISHED, job.state());
        assertEquals(JobResult.CANCELLED, job.result());
        assertTrue(accept("email", 1).isEmpty());
    }

    @Test
    void resubmitMovesAPendingJobAndRestartsAFinishedOne() {
        add("email", "a");
        Job moved = engine.resubmit("email", "a", START.plusSeconds(30), null);
        assertEquals(START.plusSeconds(30), moved.scheduledAt());
        clock.advance(Duration.ofSeconds(30));
        waker.runOnce();
        finish(acceptOne("email"), true);
        Job again = engine.resubmit("email", "a", null, null);
        assertEquals(JobState.PENDING, again.state());
        acceptOne("email");
    }

    @Test
    void aProcessorMayResubmitItsOwnJobWithItsLease() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        assertThrows(HaltException.class, () -> engine.resubmit("email", "a", null, "stale"));
        assertTrue(engine.resubmit("email", "a", null, leased.lease()).resubmit());
        assertEquals(JobState.PENDING, finish(leased, true).state());
    }

    @Test
    void patchChangesWhatTheStateAllows() {
        add("email", "a");
        Job patched = engine.patch("email", "a", JobChanges.NONE.withPriority(Priority.HIGH).withGroup("t7"));
        assertEquals(Priority.HIGH, patched.priority());
        assertEquals("t7", patched.group());
        acceptOne("email");
        JobConflictException conflict = assertThrows(JobConflictException.class,
                () -> engine.patch("email", "a", JobChanges.NONE.withData("{}")));
        assertEquals(JobState.RUNNING, conflict.state());
        assertEquals(7, engine.patch("email", "a", JobChanges.NONE.withMaxAttempts(7)).maxAttempts());
        assertThrows(JobNotFoundException.class, () -> engine.patch("email", "nope", JobChanges.NONE));
    }

    // ---- scheduling, timeouts and retries ----------------------------------------------------------

    /**
     * Types are made by any add and never go. The monitors' runs look at all of them in a few
     * read-only transactions, and spend more only on types with work: two transactions per idle
     * type on every run kept an idle service busy and delivered scheduled jobs late.
     */
    @Test
    void theMonitorsRunsCostLittleForIdleTypes() {
        int idle = 2 * ShrinkingBatches.PROBE_ITEMS + 50;
        for (int i = 0; i < idle; i++) {
            engine.configureType(String.format("idle-%04d", i), TypeSettings.DEFAULT);
        }
        engine.put("email", "later", JobChanges.NONE.withScheduledAt(START.plusSeconds(10)));
        add("report", "r");
        acceptOne("report");
        activity.runOnce(); // marks the latest activity of every type

        clock.advance(TypeSettings.DEFAULT.activityTimeout().plusSeconds(1)); // "email" is due, "report" quiet
        // What each run did is checked below by state: a count may miss a step whose commit was
        // reported unknown (the fault-injected rerun).
        long before = engine.context().runner().committed();
        waker.runOnce();
        long wakerRun = engine.context().runner().committed() - before;
        before = engine.context().runner().committed();
        activity.runOnce();
        long monitorRun = engine.context().runner().committed() - before;

        assertTrue(wakerRun <= 6, "the due waker's run took " + wakerRun + " transactions");
        assertTrue(monitorRun <= 6, "the activity monitor's run took " + monitorRun + " transactions");
        Job report = engine.get("report", "r").orElseThrow();
        assertEquals(JobState.PENDING, report.state(), "the quiet job was taken back");
        assertEquals(1, engine.type("email").orElseThrow().counts().due(), "the scheduled job became due");
        assertEquals("later", acceptOne("email").job().id());
        assertEquals("r", acceptOne("report").job().id());
    }

    @Test
    void aScheduledJobBecomesAvailableWhenDue() {
        engine.put("email", "later", JobChanges.NONE.withScheduledAt(START.plusSeconds(60)));
        assertTrue(accept("email", 1).isEmpty());
        assertEquals(START.plusSeconds(60), waker.runOnce().nextDue().orElseThrow());
        clock.advance(Duration.ofSeconds(59));
        waker.runOnce();
        assertTrue(accept("email", 1).isEmpty(), "not before its time");
        clock.advance(Duration.ofSeconds(1));
        assertTrue(waker.runOnce().nextDue().isEmpty(), "nothing else is scheduled");
        assertEquals("later", acceptOne("email").job().id());
    }

    /** An accept keeps every job it took in one outcome value: 100 of the longest ids still fit. */
    @Test
    void aHundredJobsWithTheLongestIdsAreTakenInOneAccept() {
        String longest = "\uD83D\uDE00".repeat(191); // 764 bytes of UTF-8; four digits make 768
        for (int i = 0; i < 100; i++) {
            add("email", longest + String.format("%04d", i));
        }
        assertThrows(InvalidJobRequestException.class, () -> add("email", longest + "12345"));
        assertEquals(100, accept("email", 100).size());
    }

    /** 200 jobs of 60 KB each are 12 MB, over a transaction's 10 MB: the monitors work in smaller batches. */
    private static final int LARGE_JOBS = 200;
    private static final String LARGE_DATA = "\"" + "x".repeat(60_000) + "\"";

    @Test
    void manyLargeJobsFallingDueAtOnceAreAllPromoted() {
        for (int i = 0; i < LARGE_JOBS; i++) {
            engine.put("email", "big-" + i,
                    JobChanges.NONE.withData(LARGE_DATA).withScheduledAt(START.plusSeconds(60)));
        }
        clock.advance(Duration.ofSeconds(60));
        waker.runOnce(); // its count may miss a step whose commit was reported unknown; the store may not
        Counts counts = engine.type("email").orElseThrow().counts();
        assertEquals(LARGE_JOBS, counts.pending());
        assertEquals(LARGE_JOBS, counts.due(), "every job was promoted, none is left scheduled");
    }

    @Test
    void manyLargeJobsGoingQuietAtOnceAreAllReenqueued() {
        for (int i = 0; i < LARGE_JOBS; i++) {
            engine.put("email", "big-" + i, JobChanges.NONE.withData(LARGE_DATA));
        }
        for (int taken = 0; taken < LARGE_JOBS; taken += 50) {
            assertEquals(50, accept("email", 50).size());
        }
        activity.runOnce();
        clock.advance(Duration.ofSeconds(31));
        activity.runOnce();
        Counts counts = engine.type("email").orElseThrow().counts();
        assertEquals(LARGE_JOBS, counts.pending());
        assertEquals(0, counts.running());
    }

    /** A quiet run counts as an attempt: on its last one the job ends failed, and says why. */
    @Test
    void aRunThatGoesQuietOnItsLastAttemptEndsFailed() {
        engine.configureType("email", s -> new TypeSettings(Duration.ofMillis(1500), 1, s.highRun(), s.lowRun(),
                s.backoffBase(), s.backoffMax()));
        add("email", "a");
        acceptOne("email");
        activity.runOnce();
        clock.advance(Duration.ofSeconds(2));
        activity.runOnce();
        Job ended = engine.get("email", "a").orElseThrow();
        assertEquals(JobState.FINISHED, ended.state());
        assertEquals(JobResult.FAILED, ended.result());
        assertEquals("activity timeout: no heartbeat or finish within 1.5 s", ended.lastError());
    }

    @Test
    void theActivityMonitorReenqueuesAJobWhoseProcessorWentQuiet() {
        add("email", "a");
        LeasedJob quiet = acceptOne("email");
        activity.runOnce();
        clock.advance(Duration.ofSeconds(29));
        activity.runOnce();
        assertEquals(JobState.RUNNING, engine.get("email", "a").orElseThrow().state(), "not before the timeout");
        clock.advance(Duration.ofSeconds(2));
        activity.runOnce();
        Job requeued = engine.get("email", "a").orElseThrow();
        assertEquals(JobState.PENDING, requeued.state());
        assertEquals(1, requeued.attempt());
        assertTrue(requeued.lastError().contains("activity timeout"), requeued.lastError());
        assertEquals(HaltReason.LEASE_LOST, assertThrows(HaltException.class,
                () -> engine.heartbeat("email", "a", quiet.lease(), Change.keep())).reason());
        LeasedJob next = acceptOne("email");
        assertNotEquals(quiet.lease(), next.lease());
    }

    @Test
    void heartbeatsKeepAJobRunningPastItsTimeout() {
        add("email", "a");
        LeasedJob busy = acceptOne("email");
        for (int i = 0; i < 6; i++) {
            activity.runOnce();
            clock.advance(Duration.ofSeconds(20));
            engine.heartbeat("email", "a", busy.lease(), Change.keep());
        }
        activity.runOnce();
        assertEquals(JobState.RUNNING, engine.get("email", "a").orElseThrow().state());
    }

    @Test
    void aFailedAttemptRetriesAfterItsBackoffUntilAttemptsRunOut() {
        engine.configureType("flaky", new TypeSettings(Duration.ofSeconds(30), 3, 2, 1,
                Duration.ofSeconds(10), Duration.ofSeconds(15)));
        add("flaky", "a");
        Job first = finish(acceptOne("flaky"), false);
        assertEquals(JobState.PENDING, first.state());
        assertEquals(1, first.attempt());
        assertEquals("it broke", first.lastError());
        assertBetween(START.plusSeconds(5), START.plusSeconds(10), first.scheduledAt());
        clock.set(first.scheduledAt());
        waker.runOnce();
        Job second = finish(acceptOne("flaky"), false);
        Instant secondStart = clock.instant();
        // base·2 = 20 s, capped at 15 s, with jitter down to half.
        assertBetween(secondStart.plusMillis(7_500), secondStart.plusSeconds(15), second.scheduledAt());
        clock.set(second.scheduledAt());
        waker.runOnce();
        Job last = finish(acceptOne("flaky"), false);
        assertEquals(JobState.FINISHED, last.state());
        assertEquals(JobResult.FAILED, last.result());
        assertEquals(3, last.attempt());
        assertEquals(1, engine.type("flaky").orElseThrow().counts().failed());
    }

    @Test
    void dueRetriesGoBeforeFreshJobs() {
        engine.configureType("flaky", new TypeSettings(Duration.ofSeconds(30), 5, 2, 1, Duration.ZERO, Duration.ZERO));
        add("flaky", "old");
        finish(acceptOne("flaky"), false);
        add("flaky", "fresh");
        assertEquals("old", acceptOne("flaky").job().id());
    }

    private static void assertBetween(Instant low, Instant high, Instant actual) {
        assertFalse(actual.isBefore(low) || actual.isAfter(high), actual + " not within " + low + ".." + high);
    }

    // ---- fairness and priorities -------------------------------------------------------------------

    @Test
    void groupsTakeTurnsSoABigGroupDoesNotDelayASmallOne() {
        for (int i = 0; i < 50; i++) {
            engine.put("report", "big-" + i, JobChanges.NONE.withGroup("big"));
        }
        for (int i = 0; i < 3; i++) {
            engine.put("report", "small-" + i, JobChanges.NONE.withGroup("small"));
        }
        List<String> groups = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            groups.add(acceptOne("report").job().group());
        }
        assertEquals(3, groups.stream().filter("small"::equals).count(), "small got every other turn: " + groups);
    }

    @Test
    void highAndLowAlternateByTheSchemeAndFallBackWhenOneIsEmpty() {
        for (int i = 0; i < 4; i++) {
            engine.put("mail", "h" + i, JobChanges.NONE.withPriority(Priority.HIGH)
                    .withScheduledAt(START.minusSeconds(100 - i)));
            engine.put("mail", "l" + i, JobChanges.NONE.withPriority(Priority.LOW)
                    .withScheduledAt(START.minusSeconds(100 - i)));
        }
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            order.add(acceptOne("mail").job().id());
        }
        assertEquals(List.of("h0", "h1", "l0", "h2", "h3", "l1", "l2", "l3"), order);
    }

    /**
     * Accept reads a group's ready keys once and answers each class from that read unless the
     * window filled before the class: with a window of 2 the low classes need reads of their own,
     * with 16 the one read holds them all. The order of classes must not depend on which.
     */
    @Test
    void theOrderOfClassesIsTheSameWhateverTheAcceptWindow() {
        for (int window : new int[] {1, 2, 16}) {
            JobEngine windowed = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), clock,
                    new EngineOptions(window, EngineOptions.DEFAULT.maxDataBytes()));
            String type = "window-" + window;
            windowed.configureType(type,
                    new TypeSettings(Duration.ofSeconds(30), 5, 2, 1, Duration.ZERO, Duration.ZERO));
            windowed.put(type, "retry", JobChanges.NONE.withPriority(Priority.LOW));
            LeasedJob first = windowed.accept(new AcceptRequest(List.of(type), 1, null, "w")).get(0);
            windowed.finish(type, first.job().id(), first.lease(), false, Change.keep(), "again");
            for (int i = 0; i < 3; i++) {
                windowed.put(type, "h" + i, JobChanges.NONE.withPriority(Priority.HIGH));
            }
            for (int i = 0; i < 2; i++) {
                windowed.put(type, "l" + i, JobChanges.NONE.withPriority(Priority.LOW));
            }
            List<String> classes = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String id = windowed.accept(new AcceptRequest(List.of(type), 1, null, "w")).get(0).job().id();
                classes.add(id.equals("retry") ? "retry" : id.substring(0, 1));
            }
            // Two high turns, then low (its due retry before its fresh runs), then high; high runs
            // out and low takes the rest.
            assertEquals(List.of("h", "h", "retry", "h", "l", "l"), classes, "window " + window);
        }
    }

    /** A busy type matched by the same glob must not starve the others: accepts take them in turn. A list keeps its order. */
    @Test
    void theTypesOneGlobMatchesTakeTurnsWhileAListKeepsItsOrder() {
        for (String type : List.of("notify.a", "notify.b", "notify.c")) {
            for (int i = 0; i < 3; i++) {
                add(type, "j" + i);
            }
        }
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            taken.add(engine.accept(new AcceptRequest(List.of("notify.*"), 1, null, "w")).get(0).job().type());
        }
        for (String type : List.of("notify.a", "notify.b", "notify.c")) {
            assertEquals(2, taken.stream().filter(type::equals).count(), type + " in " + taken);
        }
        assertEquals(3, new java.util.HashSet<>(taken.subList(0, 3)).size(), "each type within three turns: " + taken);

        // One job of each type is left. A list keeps its order: notify.c before notify.a, every time.
        AcceptRequest listed = new AcceptRequest(List.of("notify.c", "notify.a"), 1, null, "w");
        assertEquals("notify.c", engine.accept(listed).get(0).job().type());
        assertEquals("notify.a", engine.accept(listed).get(0).job().type());
        assertTrue(engine.accept(listed).isEmpty());
    }

    /** A glob's turns are its own: other accepts in between (here one that finds nothing) do not move them. */
    @Test
    void aGlobsTurnsAreNotMovedByOtherAccepts() {
        for (String type : List.of("mail.a", "mail.b")) {
            for (int i = 0; i < 4; i++) {
                add(type, "j" + i);
            }
        }
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            taken.add(engine.accept(new AcceptRequest(List.of("mail.*"), 1, null, "w")).get(0).job().type());
            assertTrue(engine.accept(new AcceptRequest(List.of("unrelated"), 1, null, "w")).isEmpty());
        }
        assertEquals(3, taken.stream().filter("mail.a"::equals).count(), "mail.a in " + taken);
        assertEquals(3, taken.stream().filter("mail.b"::equals).count(), "mail.b in " + taken);
    }

    // ---- recurring jobs ---------------------------------------------------------------------------

    @Test
    void aRepeatingJobThatSucceedsGoesBackToPendingWithItsNewData() {
        engine.put("CheckLiveness", "site", JobChanges.NONE.withData("{\"n\":1}").withRepeat("finished, +1 minute"));
        LeasedJob run = acceptOne("CheckLiveness");
        assertEquals("FINISHED, +1 MINUTE", run.job().repeat());
        clock.advance(Duration.ofSeconds(5));
        Job next = engine.finish("CheckLiveness", "site", run.lease(), true, Change.to("{\"n\":2}"), null);
        assertEquals(JobState.PENDING, next.state());
        assertEquals(START.plusSeconds(65), next.scheduledAt());
        assertTrue(accept("CheckLiveness", 1).isEmpty());
        clock.advance(Duration.ofMinutes(1));
        waker.runOnce();
        assertEquals("{\"n\":2}", acceptOne("CheckLiveness").job().data());
    }

    @Test
    void aRepeatingJobWhoseAttemptsRunOutStillMovesOnToItsNextRun() {
        engine.put("nightly", "a", JobChanges.NONE.withRepeat("SCHEDULED, +1 DAY").withMaxAttempts(1));
        Job after = finish(acceptOne("nightly"), false);
        assertEquals(JobState.PENDING, after.state());
        assertEquals(START.plusSeconds(86_400), after.scheduledAt());
        assertEquals("it broke", after.lastError());
        assertEquals(0, after.attempt());
    }

    /** A repeated finish is answered again until the next run starts; then its lease is lost like any other. */
    @Test
    void aSpentLeaseIsLostOnceTheNextRunOfTheSeriesStarts() {
        engine.put("series", "a", JobChanges.NONE.withRepeat("FINISHED, +1 SECOND"));
        LeasedJob first = acceptOne("series");
        assertEquals(JobState.PENDING, finish(first, true).state());
        assertEquals(JobState.PENDING, finish(first, true).state(), "the same finish, repeated, while pending");
        clock.advance(Duration.ofSeconds(1));
        waker.runOnce();
        LeasedJob second = acceptOne("series");
        HaltException lost = assertThrows(HaltException.class, () -> engine.finish("series", "a", first.lease(),
                true, Change.to("{\"stale\":true}"), null));
        assertEquals(HaltReason.LEASE_LOST, lost.reason());
        Job running = engine.get("series", "a").orElseThrow();
        assertEquals(JobState.RUNNING, running.state());
        assertNull(running.data(), "the stale finish's data is not taken");
        assertEquals(JobState.PENDING, finish(second, true).state());
    }

    /** Its next time would come from the year -200: the run is the last, said in lastError, not a 400 at finish. */
    @Test
    void aRepeatThatLeavesTheYearsItCanWriteEndsWithItsRun() {
        JobChanges series = JobChanges.NONE.withRepeat("SCHEDULED, -2000 YEARS, +2001 YEARS")
                .withScheduledAt(Instant.parse("1800-01-01T00:00:00Z"));
        engine.put("ancient", "ok", series);
        Job succeeded = finish(acceptOne("ancient"), true);
        assertEquals(JobState.FINISHED, succeeded.state());
        assertEquals(JobResult.SUCCEEDED, succeeded.result());
        assertTrue(succeeded.lastError().contains("leaves the supported time range"), succeeded.lastError());
        assertTrue(succeeded.lastError().endsWith("the job repeats no more"), succeeded.lastError());

        engine.put("ancient", "broken", series.withMaxAttempts(1));
        Job failed = finish(acceptOne("ancient"), false);
        assertEquals(JobState.FINISHED, failed.state());
        assertEquals(JobResult.FAILED, failed.result());
        assertTrue(failed.lastError().startsWith("it broke; then repeat"), failed.lastError());
    }

    /** The activity monitor ends such a series too, instead of failing its check for good. */
    @Test
    void aQuietRunOfARepeatThatLeavesTheYearsEndsTheSeries() {
        engine.put("ancient", "quiet", JobChanges.NONE.withRepeat("SCHEDULED, -2000 YEARS, +2001 YEARS")
                .withScheduledAt(Instant.parse("1800-01-01T00:00:00Z")).withMaxAttempts(1));
        acceptOne("ancient");
        activity.runOnce();
        clock.advance(Duration.ofSeconds(31));
        activity.runOnce();
        Job ended = engine.get("ancient", "quiet").orElseThrow();
        assertEquals(JobState.FINISHED, ended.state());
        assertEquals(JobResult.FAILED, ended.result());
        assertTrue(ended.lastError().startsWith("activity timeout"), ended.lastError());
        assertTrue(ended.lastError().endsWith("the job repeats no more"), ended.lastError());
    }

    /**
     * A repeat stored before the check at creation (or one its samples missed) that gives the same
     * time again: the series ends instead of running back to back.
     */
    @Test
    void aStoredRepeatThatStallsEndsTheSeries() {
        engine.put("noon", "a", JobChanges.NONE.withRepeat("FINISHED, +1 HOUR"));
        engine.context().runner().run(tx -> {
            // From 13:00, noon of the same day.
            RecordSurgery.storeRepeat(tx, "noon", "a", "FINISHED, START OF DAY, +12 HOURS", Times.micros(clock.instant()));
            return null;
        });
        clock.advance(Duration.ofHours(3)); // 13:00
        Job after = finish(acceptOne("noon"), true);
        assertEquals(JobState.FINISHED, after.state());
        assertEquals(JobResult.SUCCEEDED, after.result());
        assertTrue(after.lastError().contains("gives 2026-11-21T12:00:00Z, not a later time"), after.lastError());
    }

    /** A daily job due now, on the day's grid, whose failures retry 10 s later, three attempts a run. */
    private void addNightlyWithRetries() {
        engine.configureType("nightly", new TypeSettings(Duration.ofSeconds(30), 3, 2, 1,
                Duration.ofSeconds(10), Duration.ofSeconds(10)));
        engine.put("nightly", "a", JobChanges.NONE.withRepeat("SCHEDULED, +1 DAY"));
    }

    /** A retry is due at its own time; the run stays scheduled when it was, and the series keeps its grid. */
    @Test
    void aScheduledRepeatCountsFromTheRunsTimeNotItsRetrys() {
        addNightlyWithRetries();
        clock.advance(Duration.ofHours(2));
        Job retry = finish(acceptOne("nightly"), false);
        assertTrue(retry.scheduledAt().isAfter(START.plus(Duration.ofHours(2))), "the retry backs off from now");
        clock.advance(Duration.ofSeconds(10));
        waker.runOnce();
        LeasedJob second = acceptOne("nightly");
        activity.runOnce();
        clock.advance(Duration.ofSeconds(31));
        activity.runOnce(); // the retry's processor goes quiet: a third attempt, due at once
        waker.runOnce();
        LeasedJob third = acceptOne("nightly");
        assertEquals(2, third.job().attempt());
        assertNotEquals(second.lease(), third.lease());
        Job done = finish(third, true);
        assertEquals(JobState.PENDING, done.state());
        assertEquals(START.plus(Duration.ofDays(1)), done.scheduledAt(), "a day after the run, not after a retry");
        assertEquals(0, done.attempt());
    }

    /** A client's new time for a pending retry is the run's time from then on: the series counts from it. */
    @Test
    void aNewTimeForAPendingRetryIsTheRunsTime() {
        addNightlyWithRetries();
        finish(acceptOne("nightly"), false); // a retry, pending
        Instant patched = START.plus(Duration.ofDays(3));
        assertEquals(patched, engine.patch("nightly", "a", JobChanges.NONE.withScheduledAt(patched)).scheduledAt());
        clock.set(patched);
        waker.runOnce();
        Job next = finish(acceptOne("nightly"), true);
        assertEquals(patched.plus(Duration.ofDays(1)), next.scheduledAt(), "a day after the patched time");

        clock.set(next.scheduledAt());
        waker.runOnce();
        finish(acceptOne("nightly"), false); // that run fails too: a retry again
        Instant resubmitted = START.plus(Duration.ofDays(10));
        engine.resubmit("nightly", "a", resubmitted, null);
        clock.set(resubmitted);
        waker.runOnce();
        assertEquals(resubmitted.plus(Duration.ofDays(1)), finish(acceptOne("nightly"), true).scheduledAt(),
                "a day after the resubmitted time");
    }

    /** A resubmit's time for the next run survives a retry of the current one. */
    @Test
    void aResubmitsTimeForTheNextRunSurvivesARetryOfThisOne() {
        engine.configureType("flaky", new TypeSettings(Duration.ofSeconds(30), 3, 2, 1, Duration.ZERO, Duration.ZERO));
        add("flaky", "a");
        LeasedJob first = acceptOne("flaky");
        Instant tomorrow = START.plus(Duration.ofDays(1));
        assertTrue(engine.resubmit("flaky", "a", tomorrow, null).resubmit());
        finish(first, false); // retried at once
        Job next = finish(acceptOne("flaky"), true);
        assertEquals(JobState.PENDING, next.state());
        assertEquals(tomorrow, next.scheduledAt());
    }

    @Test
    void startedCountsFromTheAcceptAndScheduledCatchesUpMissedRunsBackToBack() {
        engine.put("started", "a", JobChanges.NONE.withRepeat("STARTED, +10 MINUTES"));
        LeasedJob run = acceptOne("started");
        clock.advance(Duration.ofMinutes(3));
        assertEquals(START.plus(Duration.ofMinutes(10)), finish(run, true).scheduledAt());

        clock.set(START);
        engine.put("scheduled", "b", JobChanges.NONE.withRepeat("SCHEDULED, +1 HOUR"));
        clock.set(START.plus(Duration.ofHours(5)));
        waker.runOnce();
        // The service was away for five hours: each run is due at once, an hour after the last one.
        Instant due = START;
        for (int i = 1; i <= 3; i++) {
            Job next = finish(acceptOne("scheduled"), true);
            due = due.plus(Duration.ofHours(1));
            assertEquals(due, next.scheduledAt());
            waker.runOnce();
        }
    }

    @Test
    void removingTheRepeatEndsTheSeriesAfterTheCurrentRun() {
        engine.put("series", "a", JobChanges.NONE.withRepeat("DAILY"));
        LeasedJob run = acceptOne("series");
        assertNull(engine.patch("series", "a", JobChanges.NONE.withRepeat(null)).repeat());
        Job last = finish(run, true);
        assertEquals(JobState.FINISHED, last.state());
        assertEquals(JobResult.SUCCEEDED, last.result());
    }

    // ---- types and listing ------------------------------------------------------------------------

    @Test
    void typesAreCreatedOnFirstUseAndConfigurable() {
        assertTrue(engine.type("fresh").isEmpty());
        add("fresh", "a");
        assertEquals(TypeSettings.DEFAULT, engine.type("fresh").orElseThrow().settings());
        TypeSettings custom = new TypeSettings(Duration.ofSeconds(5), 3, 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(2));
        engine.configureType("fresh", custom);
        assertEquals(custom, engine.type("fresh").orElseThrow().settings());
        assertTrue(engine.types().stream().anyMatch(t -> t.type().equals("fresh") && t.counts().pending() == 1));
        assertThrows(InvalidJobRequestException.class,
                () -> new TypeSettings(Duration.ofSeconds(5), 3, 0, 0, Duration.ZERO, Duration.ZERO));
    }

    @Test
    void listingPagesThroughJobsInIdOrderWithFilters() {
        for (int i = 0; i < 7; i++) {
            engine.put("email", "job-" + i, JobChanges.NONE.withGroup(i % 2 == 0 ? "even" : "odd"));
        }
        acceptOne("email");
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            JobPage page = engine.list("email", null, null, 3, cursor);
            page.jobs().forEach(j -> seen.add(j.id()));
            cursor = page.next();
        } while (cursor != null);
        assertEquals(List.of("job-0", "job-1", "job-2", "job-3", "job-4", "job-5", "job-6"), seen);
        assertEquals(4, engine.list("email", null, "even", 100, null).jobs().size());
        assertEquals(1, engine.list("email", JobState.RUNNING, null, 100, null).jobs().size());
        assertThrows(InvalidJobRequestException.class, () -> engine.list("email", null, null, 3, "!!"));
    }

    @Test
    void generatedIdsListInCreationOrder() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(engine.create("email", JobChanges.NONE).job().id());
            clock.advance(Duration.ofMillis(1));
        }
        List<String> listed = engine.list("email", null, null, 100, null).jobs().stream().map(Job::id).toList();
        assertEquals(created, listed);
    }

    // ---- waiting ----------------------------------------------------------------------------------

    @Test
    void aBlockedAcceptIsHandedAJobAddedLater() throws Exception {
        var waiting = waits.accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofSeconds(EVENT_SECONDS))
                .toCompletableFuture();
        assertFalse(waiting.isDone());
        add("push", "later");
        List<LeasedJob> got = waiting.get(EVENT_SECONDS, TimeUnit.SECONDS);
        assertEquals("later", got.get(0).job().id());
    }

    @Test
    void aBlockedAcceptEndsEmptyWhenItsWaitEnds() throws Exception {
        var waiting = waits.accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofMillis(50))
                .toCompletableFuture();
        assertTrue(waiting.get(EVENT_SECONDS, TimeUnit.SECONDS).isEmpty());
        add("push", "a");
        acceptOne("push");
    }

    @Test
    void manyBlockedWorkersShareJobsOnePerWorker() throws Exception {
        List<java.util.concurrent.CompletableFuture<List<LeasedJob>>> workers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            workers.add(waits.accept(new AcceptRequest(List.of("push"), 1, null, "w" + i),
                    Duration.ofSeconds(EVENT_SECONDS)).toCompletableFuture());
        }
        for (int i = 0; i < 5; i++) {
            add("push", "j" + i);
        }
        Set<String> ids = new HashSet<>();
        for (var worker : workers) {
            List<LeasedJob> got = worker.get(EVENT_SECONDS, TimeUnit.SECONDS);
            assertEquals(1, got.size());
            ids.add(got.get(0).job().id());
        }
        assertEquals(5, ids.size(), "no job went to two workers");
    }

    @Test
    void aBlockedAcceptIsHandedAJobCreatedForIt() throws Exception {
        var waiting = waits.accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofSeconds(EVENT_SECONDS))
                .toCompletableFuture();
        Added created = engine.createAsync("push", JobChanges.NONE).get(EVENT_SECONDS, TimeUnit.SECONDS);
        LeasedJob got = waiting.get(EVENT_SECONDS, TimeUnit.SECONDS).get(0);
        assertEquals(created.job().id(), got.job().id());
        assertEquals("w", engine.heartbeat("push", got.job().id(), got.lease(), Change.keep()).worker());
    }

    // ---- hand-off: a job added for a blocked accept goes to it in the adding transaction ----------

    /** A blocked accept as the engine sees it; records what it is settled with. */
    private static final class RecordedHandOff implements HandOff {
        private final AcceptRequest request;
        private final List<List<LeasedJob>> settled = new CopyOnWriteArrayList<>();

        RecordedHandOff(AcceptRequest request) {
            this.request = request;
        }

        @Override
        public AcceptRequest request() {
            return request;
        }

        @Override
        public void settle(List<LeasedJob> jobs) {
            settled.add(jobs);
        }

        List<LeasedJob> once() {
            assertEquals(1, settled.size(), "settled exactly once");
            return settled.get(0);
        }
    }

    /** This engine, but with {@code handOff} as the one accept blocked for the jobs it adds. */
    private JobEngine handingTo(HandOff handOff) {
        return withWaiters((type, due) -> handOff);
    }

    private JobEngine withWaiters(Waiters waiters) {
        return engine.withWaiters(waiters);
    }

    private static RecordedHandOff waiting(String type, Instant maxScheduledAt) {
        return new RecordedHandOff(new AcceptRequest(List.of(type), 1, maxScheduledAt, "w"));
    }

    /** The counter every commit that makes a job of {@code type} ready bumps, waking its waiting accepts. */
    private byte[] readyWatchValue(String type) {
        return engine.context().runner().run(tx -> tx.get(JobKeys.readyWatch(type)));
    }

    @Test
    void aJobAddedForABlockedAcceptIsLeasedToItInOneTransaction() {
        engine.put("push", "earlier", JobChanges.NONE);
        acceptOne("push");
        byte[] readyWatch = readyWatchValue("push");
        RecordedHandOff handOff = waiting("push", null);
        long before = engine.context().runner().committed();
        Added added = Futures.join(handingTo(handOff).putAsync("push", "a", JobChanges.NONE));
        assertEquals(1, engine.context().runner().committed() - before, "adding and leasing are one transaction");
        assertArrayEquals(readyWatch, readyWatchValue("push"), "no other waiter is woken for a job already taken");
        assertTrue(added.created());
        LeasedJob leased = handOff.once().get(0);
        assertEquals("a", leased.job().id());
        Job running = engine.get("push", "a").orElseThrow();
        assertEquals(JobState.RUNNING, running.state());
        assertEquals("w", running.worker());
        assertEquals(leased.job().startedAt(), running.startedAt());
        engine.finish("push", "a", leased.lease(), true, Change.keep(), null);
        Counts counts = engine.type("push").orElseThrow().counts();
        assertEquals(0, counts.pending());
        assertEquals(1, counts.succeeded());
    }

    @Test
    void aHandOffTakesWhatAnAcceptWouldOldestFirst() {
        engine.put("push", "older", JobChanges.NONE.withScheduledAt(START.minusSeconds(5)));
        RecordedHandOff handOff = waiting("push", null);
        byte[] readyWatch = readyWatchValue("push");
        Futures.join(handingTo(handOff).putAsync("push", "newer", JobChanges.NONE));
        assertEquals("older", handOff.once().get(0).job().id());
        assertFalse(Arrays.equals(readyWatch, readyWatchValue("push")), "the job left ready wakes the other waiters");
        assertEquals(JobState.PENDING, engine.get("push", "newer").orElseThrow().state());
        assertEquals("newer", acceptOne("push").job().id());
    }

    @Test
    void aJobThatIsNotDueIsNotHandedOff() {
        List<String> asked = new CopyOnWriteArrayList<>();
        Futures.join(withWaiters((type, due) -> {
            asked.add(type);
            return null;
        }).putAsync("push", "later", JobChanges.NONE.withScheduledAt(START.plusSeconds(60))));
        assertEquals(List.of(), asked, "no blocked accept is claimed for a job that is not due");
        assertEquals(JobState.PENDING, engine.get("push", "later").orElseThrow().state());
    }

    @Test
    void aHandOffThatFindsNothingForItsAcceptLeavesTheJobPending() {
        RecordedHandOff handOff = waiting("push", START.minusSeconds(60));
        Futures.join(handingTo(handOff).putAsync("push", "a", JobChanges.NONE));
        assertEquals(List.of(), handOff.once());
        assertEquals(JobState.PENDING, engine.get("push", "a").orElseThrow().state());
        assertEquals(1, engine.type("push").orElseThrow().counts().due());
    }

    @Test
    void invalidInputClaimsNoBlockedAccept() {
        List<String> asked = new CopyOnWriteArrayList<>();
        JobEngine asking = withWaiters((type, due) -> {
            asked.add(type);
            return null;
        });
        assertThrows(InvalidJobRequestException.class, () -> asking.putAsync("push", "a", JobChanges.NONE.withMaxAttempts(0)));
        assertEquals(List.of(), asked);
    }

    @Test
    void waitForAnswersWhenTheJobReachesTheState() throws Exception {
        add("email", "a");
        var finished = waits.waitFor("email", "a", JobState.FINISHED, Duration.ofSeconds(EVENT_SECONDS)).toCompletableFuture();
        LeasedJob leased = acceptOne("email");
        assertFalse(finished.isDone());
        finish(leased, true);
        assertEquals(JobState.FINISHED, finished.get(EVENT_SECONDS, TimeUnit.SECONDS).state());
        Job timedOut = waits.waitFor("email", "a", JobState.RUNNING, Duration.ofMillis(50)).toCompletableFuture()
                .get(EVENT_SECONDS, TimeUnit.SECONDS);
        assertEquals(JobState.FINISHED, timedOut.state(), "at the timeout: the state as it is");
    }

    /** A shutdown must not be held up by long-polls: a waitFor answers the job as it is, as at its timeout. */
    @Test
    void aShutdownAnswersEveryWaitForAtOnce() throws Exception {
        add("email", "a");
        var finished = waits.waitFor("email", "a", JobState.FINISHED, Duration.ofHours(1)).toCompletableFuture();
        assertFalse(finished.isDone());
        waits.close();
        assertEquals(JobState.PENDING, finished.get(EVENT_SECONDS, TimeUnit.SECONDS).state());
        var after = waits.waitFor("email", "a", JobState.FINISHED, Duration.ofHours(1)).toCompletableFuture();
        assertEquals(JobState.PENDING, after.get(EVENT_SECONDS, TimeUnit.SECONDS).state(), "one asked afterwards too");
    }

    /** While a shutdown's delay lasts, accepts keep nobody waiting but still hand out the jobs due. */
    @Test
    void afterAShutdownBeganAnAcceptTakesWhatIsDueWithoutWaiting() throws Exception {
        waits.close();
        var none = waits.accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofHours(1))
                .toCompletableFuture();
        assertEquals(List.of(), none.get(EVENT_SECONDS, TimeUnit.SECONDS), "nothing due: answered at once");
        add("push", "a");
        var due = waits.accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofHours(1))
                .toCompletableFuture();
        assertEquals("a", due.get(EVENT_SECONDS, TimeUnit.SECONDS).get(0).job().id());
    }

    @Test
    void aSubscriptionSeesTheCurrentStateThenChangesThenRemoval() throws Exception {
        add("email", "a");
        List<JobEvent> events = new CopyOnWriteArrayList<>();
        JobWaits.Subscription subscription = waits.subscribe("email", "a", events::add);
        LeasedJob leased = acceptOne("email");
        awaitEvents(events, 2);
        finish(leased, true);
        awaitEvents(events, 3);
        engine.remove("email", "a");
        subscription.ended().toCompletableFuture().get(EVENT_SECONDS, TimeUnit.SECONDS);
        assertEquals(JobState.PENDING, events.get(0).job().state());
        assertEquals(JobState.RUNNING, events.get(1).job().state());
        assertEquals(JobState.FINISHED, events.get(2).job().state());
        assertTrue(events.get(events.size() - 1).removed());
        assertThrows(JobNotFoundException.class, () -> waits.subscribe("email", "a", e -> { }));
    }

    private static void awaitEvents(List<JobEvent> events, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EVENT_SECONDS);
        synchronized (events) {
            while (events.size() < count) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("expected " + count + " events, got " + events);
                }
                events.wait(10);
            }
        }
    }
}
