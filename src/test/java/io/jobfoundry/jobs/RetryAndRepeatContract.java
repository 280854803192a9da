package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.jobfoundry.jobs.background.ShrinkingBatches;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.NewJob;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.RecordSurgery;
import io.jobfoundry.jobs.records.Times;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scheduled jobs, activity timeouts and retries (the monitors by {@code runOnce()} with a mutable clock), and recurring jobs.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it.
 */
public interface RetryAndRepeatContract extends EngineFixture {


    /**
     * Types are made by any add and never go. The monitors' runs look at all of them in a few
     * read-only transactions, and spend more only on types with work: two transactions per idle
     * type on every run kept an idle service busy and delivered scheduled jobs late.
     */
    @Test
    default void theMonitorsRunsCostLittleForIdleTypes() {
        int idle = 2 * ShrinkingBatches.PROBE_ITEMS + 50;
        for (int i = 0; i < idle; i++) {
            engine().configureType(String.format("idle-%04d", i), TypeSettings.DEFAULT);
        }
        engine().put("email", "later", JobChanges.NONE.withScheduledAt(START.plusSeconds(10)));
        add("report", "r");
        acceptOne("report");
        activity().runOnce(); // marks the latest activity of every type

        clock().advance(TypeSettings.DEFAULT.activityTimeout().plusSeconds(1)); // "email" is due, "report" quiet
        // What each run did is checked below by state: a count may miss a step whose commit was
        // reported unknown (the fault-injected rerun).
        long before = engine().context().runner().committed();
        waker().runOnce();
        long wakerRun = engine().context().runner().committed() - before;
        before = engine().context().runner().committed();
        activity().runOnce();
        long monitorRun = engine().context().runner().committed() - before;

        assertTrue(wakerRun <= 6, "the due waker's run took " + wakerRun + " transactions");
        assertTrue(monitorRun <= 6, "the activity monitor's run took " + monitorRun + " transactions");
        Job report = engine().get("report", "r").orElseThrow();
        assertEquals(JobState.PENDING, report.state(), "the quiet job was taken back");
        assertEquals(1, engine().type("email").orElseThrow().counts().due(), "the scheduled job became due");
        assertEquals("later", acceptOne("email").job().id());
        assertEquals("r", acceptOne("report").job().id());
    }

    @Test
    default void aScheduledJobBecomesAvailableWhenDue() {
        engine().put("email", "later", JobChanges.NONE.withScheduledAt(START.plusSeconds(60)));
        assertTrue(accept("email", 1).isEmpty());
        assertEquals(START.plusSeconds(60), waker().runOnce().nextDue().orElseThrow());
        clock().advance(Duration.ofSeconds(59));
        waker().runOnce();
        assertTrue(accept("email", 1).isEmpty(), "not before its time");
        clock().advance(Duration.ofSeconds(1));
        assertTrue(waker().runOnce().nextDue().isEmpty(), "nothing else is scheduled");
        assertEquals("later", acceptOne("email").job().id());
    }

    /** An accept keeps every job it took in one outcome value: 100 of the longest ids still fit. */
    @Test
    default void aHundredJobsWithTheLongestIdsAreTakenInOneAccept() {
        String longest = "\uD83D\uDE00".repeat(191); // 764 bytes of UTF-8; four digits make 768
        for (int i = 0; i < 100; i++) {
            add("email", longest + String.format("%04d", i));
        }
        assertThrows(InvalidJobRequestException.class, () -> add("email", longest + "12345"));
        assertEquals(100, accept("email", 100).size());
    }

    /** 200 jobs of 60 KB each are 12 MB, over a transaction's 10 MB: the monitors work in smaller batches. */
    int LARGE_JOBS = 200;
    String LARGE_DATA = "\"" + "x".repeat(60_000) + "\"";

    @Test
    default void manyLargeJobsFallingDueAtOnceAreAllPromoted() {
        for (int i = 0; i < LARGE_JOBS; i++) {
            engine().put("email", "big-" + i,
                    JobChanges.NONE.withData(LARGE_DATA).withScheduledAt(START.plusSeconds(60)));
        }
        clock().advance(Duration.ofSeconds(60));
        waker().runOnce(); // its count may miss a step whose commit was reported unknown; the store may not
        Counts counts = engine().type("email").orElseThrow().counts();
        assertEquals(LARGE_JOBS, counts.pending());
        assertEquals(LARGE_JOBS, counts.due(), "every job was promoted, none is left scheduled");
    }

    @Test
    default void manyLargeJobsGoingQuietAtOnceAreAllReenqueued() {
        for (int i = 0; i < LARGE_JOBS; i++) {
            engine().put("email", "big-" + i, JobChanges.NONE.withData(LARGE_DATA));
        }
        for (int taken = 0; taken < LARGE_JOBS; taken += 50) {
            assertEquals(50, accept("email", 50).size());
        }
        activity().runOnce();
        clock().advance(Duration.ofSeconds(31));
        activity().runOnce();
        Counts counts = engine().type("email").orElseThrow().counts();
        assertEquals(LARGE_JOBS, counts.pending());
        assertEquals(0, counts.running());
    }

    /** A quiet run counts as an attempt: on its last one the job ends failed, and says why. */
    @Test
    default void aRunThatGoesQuietOnItsLastAttemptEndsFailed() {
        engine().configureType("email", s -> new TypeSettings(Duration.ofMillis(1500), 1, s.highRun(), s.lowRun(),
                s.backoffBase(), s.backoffMax()));
        add("email", "a");
        acceptOne("email");
        activity().runOnce();
        clock().advance(Duration.ofSeconds(2));
        activity().runOnce();
        Job ended = engine().get("email", "a").orElseThrow();
        assertEquals(JobState.FINISHED, ended.state());
        assertEquals(JobResult.FAILED, ended.result());
        assertEquals("activity timeout: no heartbeat or finish within 1.5 s", ended.lastError());
    }

    @Test
    default void theActivityMonitorReenqueuesAJobWhoseProcessorWentQuiet() {
        add("email", "a");
        LeasedJob quiet = acceptOne("email");
        activity().runOnce();
        clock().advance(Duration.ofSeconds(29));
        activity().runOnce();
        assertEquals(JobState.RUNNING, engine().get("email", "a").orElseThrow().state(), "not before the timeout");
        clock().advance(Duration.ofSeconds(2));
        activity().runOnce();
        Job requeued = engine().get("email", "a").orElseThrow();
        assertEquals(JobState.PENDING, requeued.state());
        assertEquals(1, requeued.attempt());
        assertTrue(requeued.lastError().contains("activity timeout"), requeued.lastError());
        assertEquals(HaltReason.LEASE_LOST, assertThrows(HaltException.class,
                () -> engine().heartbeat("email", "a", quiet.lease(), Change.keep())).reason());
        LeasedJob next = acceptOne("email");
        assertNotEquals(quiet.lease(), next.lease());
    }

    @Test
    default void heartbeatsKeepAJobRunningPastItsTimeout() {
        add("email", "a");
        LeasedJob busy = acceptOne("email");
        for (int i = 0; i < 6; i++) {
            activity().runOnce();
            clock().advance(Duration.ofSeconds(20));
            engine().heartbeat("email", "a", busy.lease(), Change.keep());
        }
        activity().runOnce();
        assertEquals(JobState.RUNNING, engine().get("email", "a").orElseThrow().state());
    }

    @Test
    default void aFailedAttemptRetriesAfterItsBackoffUntilAttemptsRunOut() {
        engine().configureType("flaky", new TypeSettings(Duration.ofSeconds(30), 3, 2, 1,
                Duration.ofSeconds(10), Duration.ofSeconds(15)));
        add("flaky", "a");
        Job first = finish(acceptOne("flaky"), false);
        assertEquals(JobState.PENDING, first.state());
        assertEquals(1, first.attempt());
        assertEquals("it broke", first.lastError());
        assertBetween(START.plusSeconds(5), START.plusSeconds(10), first.scheduledAt());
        clock().set(first.scheduledAt());
        waker().runOnce();
        Job second = finish(acceptOne("flaky"), false);
        Instant secondStart = clock().instant();
        // base·2 = 20 s, capped at 15 s, with jitter down to half.
        assertBetween(secondStart.plusMillis(7_500), secondStart.plusSeconds(15), second.scheduledAt());
        clock().set(second.scheduledAt());
        waker().runOnce();
        Job last = finish(acceptOne("flaky"), false);
        assertEquals(JobState.FINISHED, last.state());
        assertEquals(JobResult.FAILED, last.result());
        assertEquals(3, last.attempt());
        assertEquals(1, engine().type("flaky").orElseThrow().counts().failed());
    }

    /** A push target's Retry-After: the retry waits for the later of it and the backoff; the last attempt still ends the run. */
    @Test
    default void aFailureWithANotBeforeTimeIsDueNoSoonerThanThatNorBeforeItsBackoff() {
        engine().configureType("throttled", new TypeSettings(Duration.ofSeconds(30), 3, 2, 1,
                Duration.ofSeconds(10), Duration.ofSeconds(10)));
        add("throttled", "a");
        LeasedJob first = acceptOne("throttled");
        Job later = engine().failAsync("throttled", "a", first.lease(), "target answered 429",
                START.plusSeconds(120)).join();
        assertEquals(JobState.PENDING, later.state());
        assertEquals(1, later.attempt());
        assertEquals("target answered 429", later.lastError());
        assertEquals(START.plusSeconds(120), later.scheduledAt(), "the target's time, past the backoff");
        clock().set(START.plusSeconds(119));
        waker().runOnce();
        assertTrue(accept("throttled", 1).isEmpty(), "not before the target's time");
        clock().set(START.plusSeconds(120));
        waker().runOnce();
        LeasedJob second = acceptOne("throttled");

        Instant secondStart = clock().instant();
        Job backedOff = engine().failAsync("throttled", "a", second.lease(), "target answered 503",
                secondStart.plusSeconds(1)).join();
        assertBetween(secondStart.plusSeconds(5), secondStart.plusSeconds(10), backedOff.scheduledAt());
        clock().set(backedOff.scheduledAt());
        waker().runOnce();
        Job last = engine().failAsync("throttled", "a", acceptOne("throttled").lease(), "target answered 429",
                clock().instant().plusSeconds(3600)).join();
        assertEquals(JobState.FINISHED, last.state(), "out of attempts, a later time does not keep it");
        assertEquals(JobResult.FAILED, last.result());
    }

    @Test
    default void dueRetriesGoBeforeFreshJobs() {
        engine().configureType("flaky", new TypeSettings(Duration.ofSeconds(30), 5, 2, 1, Duration.ZERO, Duration.ZERO));
        add("flaky", "old");
        finish(acceptOne("flaky"), false);
        add("flaky", "fresh");
        assertEquals("old", acceptOne("flaky").job().id());
    }

    private static void assertBetween(Instant low, Instant high, Instant actual) {
        assertFalse(actual.isBefore(low) || actual.isAfter(high), actual + " not within " + low + ".." + high);
    }


    @Test
    default void aRepeatingJobThatSucceedsGoesBackToPendingWithItsNewData() {
        engine().put("CheckLiveness", "site", JobChanges.NONE.withData("{\"n\":1}").withRepeat("finished, +1 minute"));
        LeasedJob run = acceptOne("CheckLiveness");
        assertEquals("FINISHED, +1 MINUTE", run.job().repeat());
        clock().advance(Duration.ofSeconds(5));
        Job next = engine().finish("CheckLiveness", "site", run.lease(), true, Change.to("{\"n\":2}"), null);
        assertEquals(JobState.PENDING, next.state());
        assertEquals(START.plusSeconds(65), next.scheduledAt());
        assertTrue(accept("CheckLiveness", 1).isEmpty());
        clock().advance(Duration.ofMinutes(1));
        waker().runOnce();
        assertEquals("{\"n\":2}", acceptOne("CheckLiveness").job().data());
    }

    /**
     * A new cron job given no scheduledAt waits for its first slot, as cron starts: registering a
     * nightly job at 10:00 must not run it at 10:00. Given a time, or with a Bedrock repeat, it
     * runs when asked (now by default); added again once finished, it runs now, as a retry does.
     */
    @Test
    default void aCronJobWithoutAScheduledAtStartsAtItsFirstSlot() {
        Instant tomorrowTwoAm = Instant.parse("2026-11-22T02:00:00Z");
        assertEquals(tomorrowTwoAm, engine().put("nightly", "eu", JobChanges.NONE.withRepeat("CRON 0 2 * * *")).job()
                .scheduledAt());
        assertTrue(accept("nightly", 1).isEmpty(), "not due before its slot");
        assertEquals(START, engine().put("nightly", "us", JobChanges.NONE.withRepeat("CRON 0 2 * * *")
                .withScheduledAt(START)).job().scheduledAt(), "a time given is kept");
        assertEquals(START, engine().put("daily", "a", JobChanges.NONE.withRepeat("DAILY")).job().scheduledAt(),
                "a Bedrock repeat runs at once, as Bedrock's jobs do");

        engine().cancel("nightly", "eu");
        clock().advance(Duration.ofHours(17)); // 2026-11-22T03:00Z, past the first slot
        assertEquals(clock().instant(), engine().put("nightly", "eu", JobChanges.NONE).job().scheduledAt(),
                "a finished cron job added again runs now");
        engine().remove("nightly", "eu");
        LeasedJob run = acceptOne("nightly");
        assertEquals("us", run.job().id());
        assertEquals(tomorrowTwoAm.plus(Duration.ofDays(1)), finish(run, true).scheduledAt(), "then on the grid");

        // A batch's new cron job, the same.
        assertEquals(tomorrowTwoAm.plus(Duration.ofDays(1)), engine().batches().createAll(List.of(new NewJob("nightly",
                "asia", JobChanges.NONE.withRepeat("CRON 0 2 * * *")))).join().get(0).job().scheduledAt());
    }

    /**
     * A changed cron expression moves the pending run to its own first slot, as a changed crontab
     * line does; a time given with it, a retry's time, and a Bedrock repeat's run keep theirs.
     */
    @Test
    default void aPendingRunMovesToTheFirstSlotOfItsChangedCron() {
        Instant twoAm = Instant.parse("2026-11-22T02:00:00Z");
        engine().put("nightly", "eu", JobChanges.NONE.withRepeat("CRON 0 2 * * *"));
        clock().advance(Duration.ofHours(1)); // 11:00
        Job moved = engine().patch("nightly", "eu", JobChanges.NONE.withRepeat("CRON 30 4 * * *"));
        assertEquals(Instant.parse("2026-11-22T04:30:00Z"), moved.scheduledAt());
        assertEquals(moved, engine().patch("nightly", "eu", JobChanges.NONE.withRepeat("cron 30 4 * * *")),
                "the same expression again moves nothing");
        assertEquals(Instant.parse("2026-11-21T12:00:00Z"), engine().put("nightly", "eu",
                JobChanges.NONE.withRepeat("CRON 0 * * * *")).job().scheduledAt(), "a PUT moves it too");
        assertEquals(twoAm, engine().patch("nightly", "eu", JobChanges.NONE.withRepeat("CRON 0 3 * * *")
                .withScheduledAt(twoAm)).scheduledAt(), "a time given is the run's");
        assertEquals(twoAm, engine().patch("nightly", "eu", JobChanges.NONE.withRepeat("DAILY")).scheduledAt(),
                "a Bedrock repeat counts from the run's own times");

        // A run being retried keeps its retry's time.
        engine().put("sync", "a", JobChanges.NONE.withRepeat("CRON 0 * * * *").withScheduledAt(clock().instant()));
        Job retrying = finish(acceptOne("sync"), false);
        assertEquals(JobState.PENDING, retrying.state());
        assertEquals(retrying.scheduledAt(), engine().patch("sync", "a", JobChanges.NONE.withRepeat("CRON 30 * * * *"))
                .scheduledAt());
    }

    /** The zone is part of the stored repeat: each run's successor is read on that zone's clock. */
    @Test
    default void aZonedCronJobRunsOnItsZonesClock() {
        // 09:00 in Kolkata (UTC+05:30) is 03:30 UTC; the clock starts at 15:30 there.
        String repeat = "cron tz=asia/kolkata 0 9 * * *";
        Job added = engine().put("report", "in", JobChanges.NONE.withRepeat(repeat)).job();
        assertEquals("CRON TZ=Asia/Kolkata 0 9 * * *", added.repeat());
        assertEquals(Instant.parse("2026-11-22T03:30:00Z"), added.scheduledAt());
        clock().advance(Duration.between(clock().instant(), added.scheduledAt()));
        waker().runOnce();
        Job next = finish(acceptOne("report"), true);
        assertEquals(Instant.parse("2026-11-23T03:30:00Z"), next.scheduledAt());
        assertEquals("CRON TZ=Asia/Kolkata 0 9 * * *", next.repeat());
    }

    @Test
    default void aRepeatingJobWhoseAttemptsRunOutStillMovesOnToItsNextRun() {
        engine().put("nightly", "a", JobChanges.NONE.withRepeat("SCHEDULED, +1 DAY").withMaxAttempts(1));
        Job after = finish(acceptOne("nightly"), false);
        assertEquals(JobState.PENDING, after.state());
        assertEquals(START.plusSeconds(86_400), after.scheduledAt());
        assertEquals("it broke", after.lastError());
        assertEquals(0, after.attempt());
    }

    /** A repeated finish is answered again until the next run starts; then its lease is lost like any other. */
    @Test
    default void aSpentLeaseIsLostOnceTheNextRunOfTheSeriesStarts() {
        engine().put("series", "a", JobChanges.NONE.withRepeat("FINISHED, +1 SECOND"));
        LeasedJob first = acceptOne("series");
        assertEquals(JobState.PENDING, finish(first, true).state());
        assertEquals(JobState.PENDING, finish(first, true).state(), "the same finish, repeated, while pending");
        clock().advance(Duration.ofSeconds(1));
        waker().runOnce();
        LeasedJob second = acceptOne("series");
        HaltException lost = assertThrows(HaltException.class, () -> engine().finish("series", "a", first.lease(),
                true, Change.to("{\"stale\":true}"), null));
        assertEquals(HaltReason.LEASE_LOST, lost.reason());
        Job running = engine().get("series", "a").orElseThrow();
        assertEquals(JobState.RUNNING, running.state());
        assertNull(running.data(), "the stale finish's data is not taken");
        assertEquals(JobState.PENDING, finish(second, true).state());
    }

    /** Its next time would come from the year -200: the run is the last, said in lastError, not a 400 at finish. */
    @Test
    default void aRepeatThatLeavesTheYearsItCanWriteEndsWithItsRun() {
        JobChanges series = JobChanges.NONE.withRepeat("SCHEDULED, -2000 YEARS, +2001 YEARS")
                .withScheduledAt(Instant.parse("1800-01-01T00:00:00Z"));
        engine().put("ancient", "ok", series);
        Job succeeded = finish(acceptOne("ancient"), true);
        assertEquals(JobState.FINISHED, succeeded.state());
        assertEquals(JobResult.SUCCEEDED, succeeded.result());
        assertTrue(succeeded.lastError().contains("leaves the supported time range"), succeeded.lastError());
        assertTrue(succeeded.lastError().endsWith("the job repeats no more"), succeeded.lastError());

        engine().put("ancient", "broken", series.withMaxAttempts(1));
        Job failed = finish(acceptOne("ancient"), false);
        assertEquals(JobState.FINISHED, failed.state());
        assertEquals(JobResult.FAILED, failed.result());
        assertTrue(failed.lastError().startsWith("it broke; then repeat"), failed.lastError());
    }

    /** The activity monitor ends such a series too, instead of failing its check for good. */
    @Test
    default void aQuietRunOfARepeatThatLeavesTheYearsEndsTheSeries() {
        engine().put("ancient", "quiet", JobChanges.NONE.withRepeat("SCHEDULED, -2000 YEARS, +2001 YEARS")
                .withScheduledAt(Instant.parse("1800-01-01T00:00:00Z")).withMaxAttempts(1));
        acceptOne("ancient");
        activity().runOnce();
        clock().advance(Duration.ofSeconds(31));
        activity().runOnce();
        Job ended = engine().get("ancient", "quiet").orElseThrow();
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
    default void aStoredRepeatThatStallsEndsTheSeries() {
        engine().put("noon", "a", JobChanges.NONE.withRepeat("FINISHED, +1 HOUR"));
        engine().context().runner().run(tx -> {
            // From 13:00, noon of the same day.
            RecordSurgery.storeRepeat(tx, "noon", "a", "FINISHED, START OF DAY, +12 HOURS", Times.micros(clock().instant()));
            return null;
        });
        clock().advance(Duration.ofHours(3)); // 13:00
        Job after = finish(acceptOne("noon"), true);
        assertEquals(JobState.FINISHED, after.state());
        assertEquals(JobResult.SUCCEEDED, after.result());
        assertTrue(after.lastError().contains("gives 2026-11-21T12:00:00Z, not a later time"), after.lastError());
    }

    /** A daily job due now, on the day's grid, whose failures retry 10 s later, three attempts a run. */
    private void addNightlyWithRetries() {
        engine().configureType("nightly", new TypeSettings(Duration.ofSeconds(30), 3, 2, 1,
                Duration.ofSeconds(10), Duration.ofSeconds(10)));
        engine().put("nightly", "a", JobChanges.NONE.withRepeat("SCHEDULED, +1 DAY"));
    }

    /** A retry is due at its own time; the run stays scheduled when it was, and the series keeps its grid. */
    @Test
    default void aScheduledRepeatCountsFromTheRunsTimeNotItsRetrys() {
        addNightlyWithRetries();
        clock().advance(Duration.ofHours(2));
        Job retry = finish(acceptOne("nightly"), false);
        assertTrue(retry.scheduledAt().isAfter(START.plus(Duration.ofHours(2))), "the retry backs off from now");
        clock().advance(Duration.ofSeconds(10));
        waker().runOnce();
        LeasedJob second = acceptOne("nightly");
        activity().runOnce();
        clock().advance(Duration.ofSeconds(31));
        activity().runOnce(); // the retry's processor goes quiet: a third attempt, due at once
        waker().runOnce();
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
    default void aNewTimeForAPendingRetryIsTheRunsTime() {
        addNightlyWithRetries();
        finish(acceptOne("nightly"), false); // a retry, pending
        Instant patched = START.plus(Duration.ofDays(3));
        assertEquals(patched, engine().patch("nightly", "a", JobChanges.NONE.withScheduledAt(patched)).scheduledAt());
        clock().set(patched);
        waker().runOnce();
        Job next = finish(acceptOne("nightly"), true);
        assertEquals(patched.plus(Duration.ofDays(1)), next.scheduledAt(), "a day after the patched time");

        clock().set(next.scheduledAt());
        waker().runOnce();
        finish(acceptOne("nightly"), false); // that run fails too: a retry again
        Instant resubmitted = START.plus(Duration.ofDays(10));
        engine().resubmit("nightly", "a", resubmitted, null);
        clock().set(resubmitted);
        waker().runOnce();
        assertEquals(resubmitted.plus(Duration.ofDays(1)), finish(acceptOne("nightly"), true).scheduledAt(),
                "a day after the resubmitted time");
    }

    /** A resubmit's time for the next run survives a retry of the current one. */
    @Test
    default void aResubmitsTimeForTheNextRunSurvivesARetryOfThisOne() {
        engine().configureType("flaky", new TypeSettings(Duration.ofSeconds(30), 3, 2, 1, Duration.ZERO, Duration.ZERO));
        add("flaky", "a");
        LeasedJob first = acceptOne("flaky");
        Instant tomorrow = START.plus(Duration.ofDays(1));
        assertTrue(engine().resubmit("flaky", "a", tomorrow, null).resubmit());
        finish(first, false); // retried at once
        Job next = finish(acceptOne("flaky"), true);
        assertEquals(JobState.PENDING, next.state());
        assertEquals(tomorrow, next.scheduledAt());
    }

    @Test
    default void startedCountsFromTheAcceptAndScheduledCatchesUpMissedRunsBackToBack() {
        engine().put("started", "a", JobChanges.NONE.withRepeat("STARTED, +10 MINUTES"));
        LeasedJob run = acceptOne("started");
        clock().advance(Duration.ofMinutes(3));
        assertEquals(START.plus(Duration.ofMinutes(10)), finish(run, true).scheduledAt());

        clock().set(START);
        engine().put("scheduled", "b", JobChanges.NONE.withRepeat("SCHEDULED, +1 HOUR"));
        clock().set(START.plus(Duration.ofHours(5)));
        waker().runOnce();
        // The service was away for five hours: each run is due at once, an hour after the last one.
        Instant due = START;
        for (int i = 1; i <= 3; i++) {
            Job next = finish(acceptOne("scheduled"), true);
            due = due.plus(Duration.ofHours(1));
            assertEquals(due, next.scheduledAt());
            waker().runOnce();
        }
    }

    @Test
    default void removingTheRepeatEndsTheSeriesAfterTheCurrentRun() {
        engine().put("series", "a", JobChanges.NONE.withRepeat("DAILY"));
        LeasedJob run = acceptOne("series");
        assertNull(engine().patch("series", "a", JobChanges.NONE.withRepeat(null)).repeat());
        Job last = finish(run, true);
        assertEquals(JobState.FINISHED, last.state());
        assertEquals(JobResult.SUCCEEDED, last.result());
    }
}
