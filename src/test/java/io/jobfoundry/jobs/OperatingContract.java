package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Attempt;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.GroupCounts;
import io.jobfoundry.jobs.model.GroupPage;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.NewJob;
import io.jobfoundry.jobs.model.Retention;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.Groups;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What an operator relies on: each job's history of attempts, retention of finished jobs (the
 * cleaner by {@code runOnce()} with a mutable clock), the oldest due time of a type, and its
 * groups with their counts.
 *
 * <p>What the cleaner's run answers is its own count, which a commit reported unknown (the
 * fault-injected rerun) may leave short; the tests judge it by the jobs.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it.
 */
public interface OperatingContract extends EngineFixture {

    private Job failOnce(String type, String error) {
        LeasedJob leased = acceptOne(type);
        return engine().finish(type, leased.job().id(), leased.lease(), false, Change.keep(), error);
    }

    private void retryDue(String type) {
        clock().advance(Duration.ofHours(2)); // past any backoff of the defaults
        waker().runOnce();
    }

    // ---- history ---------------------------------------------------------------------------------

    @Test
    default void historyTellsWhyAJobFailedBeforeItSucceeded() {
        engine().configureType("email", TypeSettings.DEFAULT);
        add("email", "welcome");
        Instant firstStart = clock().instant();
        failOnce("email", "smtp 451");
        retryDue("email");
        failOnce("email", "smtp 452");
        retryDue("email");
        LeasedJob third = acceptOne("email");
        Job done = finish(third, true);

        List<Attempt> history = done.history();
        assertEquals(3, history.size());
        assertEquals(List.of(1, 2, 3), history.stream().map(Attempt::attempt).toList());
        assertEquals(List.of(Attempt.Outcome.FAILED, Attempt.Outcome.FAILED, Attempt.Outcome.SUCCEEDED),
                history.stream().map(Attempt::outcome).toList());
        assertEquals("smtp 451", history.get(0).error());
        assertEquals("smtp 452", history.get(1).error());
        assertNull(history.get(2).error());
        assertEquals("worker-1", history.get(0).worker());
        assertEquals(firstStart, history.get(0).startedAt());
        assertEquals(clock().instant(), history.get(2).endedAt());
        assertEquals(history, engine().get("email", "welcome").orElseThrow().history(), "stored, not only answered");
    }

    @Test
    default void historyRecordsATimeoutAndACancelWhileRunning() {
        add("email", "quiet");
        acceptOne("email");
        activity().runOnce();
        clock().advance(TypeSettings.DEFAULT.activityTimeout().plusSeconds(1));
        activity().runOnce();
        LeasedJob again = acceptOne("email");
        engine().cancel("email", "quiet");
        HaltException halt = assertThrows(HaltException.class, () -> engine().heartbeat("email", "quiet",
                again.lease(), Change.keep()));
        assertEquals(HaltReason.CANCELLED, halt.reason());

        List<Attempt> history = engine().get("email", "quiet").orElseThrow().history();
        assertEquals(List.of(Attempt.Outcome.TIMED_OUT, Attempt.Outcome.CANCELLED),
                history.stream().map(Attempt::outcome).toList());
        assertTrue(history.get(0).error().startsWith("activity timeout"), history.get(0).error());
        assertEquals(List.of(1, 2), history.stream().map(Attempt::attempt).toList());
    }

    @Test
    default void historyKeepsTheLatestTwentyAttemptsAcrossRunsWithErrorsCut() {
        engine().put("nightly", "n", JobChanges.NONE.withRepeat("FINISHED, +1 MINUTE").withMaxAttempts(1));
        String longError = "x".repeat(5_000);
        for (int run = 0; run < 25; run++) {
            failOnce("nightly", longError + run);
            clock().advance(Duration.ofMinutes(2));
            waker().runOnce();
        }
        List<Attempt> history = engine().get("nightly", "n").orElseThrow().history();
        assertTrue(history.size() <= 20, "at most twenty: " + history.size());
        assertTrue(history.size() >= 10, "the bound on bytes still keeps most: " + history.size());
        // Each run's attempt is the first of its run; the newest last.
        assertTrue(history.stream().allMatch(a -> a.attempt() == 1));
        assertTrue(history.stream().allMatch(a -> a.error().length() == 500), "errors cut to 500 characters");
        assertTrue(history.get(history.size() - 1).endedAt().isAfter(history.get(0).endedAt()));
    }

    // ---- retention -------------------------------------------------------------------------------

    @Test
    default void finishedJobsGoOnceTheirRetentionHasPassedAndCountsFollow() {
        add("email", "ok");
        finish(acceptOne("email"), true);
        engine().put("email", "bad", JobChanges.NONE.withMaxAttempts(1));
        failOnce("email", "it broke");
        assertEquals(1, engine().type("email").orElseThrow().counts().succeeded());

        clock().advance(Duration.ofHours(23));
        assertEquals(Map.of(), cleaner().runOnce(), "nothing before a day");
        clock().advance(Duration.ofHours(1));
        cleaner().runOnce();
        assertTrue(engine().get("email", "ok").isEmpty(), "the succeeded job is gone after a day");
        assertTrue(engine().get("email", "bad").isPresent(), "a failed one is kept a week");
        Counts counts = engine().type("email").orElseThrow().counts();
        assertEquals(0, counts.succeeded());
        assertEquals(1, counts.failed());

        clock().advance(Duration.ofDays(6));
        cleaner().runOnce();
        assertTrue(engine().get("email", "bad").isEmpty());
        assertEquals(Counts.NONE, engine().type("email").orElseThrow().counts());
    }

    @Test
    default void retentionZeroRemovesAtTheNextRunAndNullKeeps() {
        engine().configureType("now", s -> s.withRetention(new Retention(Duration.ZERO, Duration.ZERO, Duration.ZERO)));
        engine().configureType("never", s -> s.withRetention(new Retention(null, null, null)));
        add("now", "a");
        add("never", "b");
        finish(acceptOne("now"), true);
        finish(acceptOne("never"), true);
        engine().cancel("never", "b");
        cleaner().runOnce();
        assertTrue(engine().get("now", "a").isEmpty());
        clock().advance(Duration.ofDays(3650));
        assertEquals(Map.of(), cleaner().runOnce());
        assertTrue(engine().get("never", "b").isPresent(), "null keeps it");
    }

    @Test
    default void aJobThatRunsAgainIsNeverRemovedByRetention() {
        engine().configureType("email", s -> s.withRetention(new Retention(Duration.ZERO, Duration.ZERO, Duration.ZERO)));
        engine().put("email", "repeating", JobChanges.NONE.withRepeat("FINISHED, +1 HOUR"));
        add("email", "again");
        finish(acceptOne("email"), true); // repeating: pending for its next run
        LeasedJob again = acceptOne("email");
        finish(again, true);
        add("email", "again"); // a finished job added again is pending again
        clock().advance(Duration.ofDays(30));
        cleaner().runOnce();
        assertEquals(JobState.PENDING, engine().get("email", "repeating").orElseThrow().state());
        assertEquals(JobState.PENDING, engine().get("email", "again").orElseThrow().state());
        assertEquals(2, engine().type("email").orElseThrow().counts().pending());
    }

    @Test
    default void aChangedRetentionAppliesToJobsFinishedBefore() {
        add("email", "ok");
        finish(acceptOne("email"), true);
        clock().advance(Duration.ofHours(2));
        cleaner().runOnce();
        assertTrue(engine().get("email", "ok").isPresent());
        engine().configureType("email", s -> s.withRetention(new Retention(Duration.ofHours(1), null, null)));
        cleaner().runOnce();
        assertTrue(engine().get("email", "ok").isEmpty());
    }

    @Test
    default void theCleanerRemovesABacklogInBoundedTransactions() {
        int jobs = 450;
        List<NewJob> batch = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            batch.add(new NewJob("bulk", String.format("j%04d", i), JobChanges.NONE));
        }
        engine().batches().createAll(batch).join();
        for (int i = 0; i < jobs; i += 100) {
            for (LeasedJob leased : engine().accept(new AcceptRequest(List.of("bulk"), 100, null, "w"))) {
                engine().cancel("bulk", leased.job().id()); // cancelled while running: ends at its next call
                assertThrows(HaltException.class, () -> finish(leased, true));
            }
        }
        assertEquals(jobs, engine().type("bulk").orElseThrow().counts().cancelled());
        clock().advance(Duration.ofDays(1).plusSeconds(1));
        long before = engine().context().runner().committed();
        cleaner().runOnce();
        assertTrue(engine().context().runner().committed() - before >= 3,
                "450 jobs take at least three transactions of at most 200");
        assertEquals(Counts.NONE, engine().type("bulk").orElseThrow().counts());
        assertTrue(engine().list("bulk", null, null, null, 10, null).jobs().isEmpty());
    }

    // ---- queue latency ---------------------------------------------------------------------------

    @Test
    default void oldestDueAtIsTheDueTimeOfTheLongestWaitingJob() {
        engine().put("email", "later", JobChanges.NONE.withScheduledAt(START.plusSeconds(600)));
        assertNull(engine().type("email").orElseThrow().oldestDueAt(), "scheduled for later is not waiting");
        clock().advance(Duration.ofSeconds(10));
        add("email", "first");
        clock().advance(Duration.ofSeconds(10));
        add("email", "second");
        assertEquals(START.plusSeconds(10), engine().type("email").orElseThrow().oldestDueAt());
        assertEquals(START.plusSeconds(10), engine().types().get(0).oldestDueAt());
        assertEquals("first", acceptOne("email").job().id());
        assertEquals(START.plusSeconds(20), engine().type("email").orElseThrow().oldestDueAt());
        acceptOne("email");
        assertNull(engine().type("email").orElseThrow().oldestDueAt());
        clock().advance(Duration.ofSeconds(600));
        assertEquals(START.plusSeconds(600), engine().type("email").orElseThrow().oldestDueAt(),
                "due by its time, whether or not the waker has moved it yet");
    }

    // ---- groups ----------------------------------------------------------------------------------

    @Test
    default void groupsListTheirPendingDueAndRunningJobs() {
        engine().put("email", "a1", JobChanges.NONE.withGroup("tenant-a"));
        engine().put("email", "a2", JobChanges.NONE.withGroup("tenant-a").withScheduledAt(START.plusSeconds(60)));
        engine().put("email", "b1", JobChanges.NONE.withGroup("tenant-b"));
        engine().put("email", "d1", JobChanges.NONE);
        LeasedJob running = engine().accept(new AcceptRequest(List.of("email"), 1, null, "w")).get(0);
        String runningGroup = running.job().group();

        List<GroupCounts> all = engine().groups("email", 100, null).orElseThrow().groups();
        assertEquals(List.of("", "tenant-a", "tenant-b"), all.stream().map(GroupCounts::group).toList());
        for (GroupCounts g : all) {
            long total = g.group().equals("tenant-a") ? 2 : 1;
            long running1 = g.group().equals(runningGroup) ? 1 : 0;
            assertEquals(total - running1, g.pending(), g.toString());
            assertEquals(running1, g.running(), g.toString());
            assertEquals(g.group().equals("tenant-a") ? g.pending() - 1 : g.pending(), g.due(), g.toString());
        }

        // One at a time, through the cursors.
        List<String> paged = new ArrayList<>();
        String cursor = null;
        do {
            GroupPage page = engine().groups("email", 1, cursor).orElseThrow();
            page.groups().forEach(g -> paged.add(g.group()));
            cursor = page.next();
        } while (cursor != null);
        assertEquals(List.of("", "tenant-a", "tenant-b"), paged);

        // A group with nothing pending or running is not listed.
        finish(running, true);
        for (LeasedJob leased : engine().accept(new AcceptRequest(List.of("email"), 10, null, "w"))) {
            finish(leased, true);
        }
        List<GroupCounts> left = engine().groups("email", 100, null).orElseThrow().groups();
        assertEquals(List.of(new GroupCounts("tenant-a", 1, 0, 0)), left);
        assertTrue(engine().groups("unknown", 10, null).isEmpty());
        assertThrows(InvalidJobRequestException.class, () -> engine().groups("email", 10, "not-a-cursor"));
        assertThrows(InvalidJobRequestException.class, () -> engine().groups("email", 0, null));
    }

    @Test
    default void aRunningJobAddedToAnotherGroupIsCountedThere() {
        engine().put("email", "j", JobChanges.NONE.withGroup("old"));
        LeasedJob running = acceptOne("email");
        engine().put("email", "j", JobChanges.NONE.withGroup("new")); // runs again in "new" when it finishes
        assertEquals(List.of(new GroupCounts("new", 0, 0, 1)), engine().groups("email", 10, null).orElseThrow().groups());
        finish(running, true);
        assertEquals(List.of(new GroupCounts("new", 1, 1, 0)), engine().groups("email", 10, null).orElseThrow().groups());
        assertEquals(Attempt.Outcome.SUCCEEDED, engine().get("email", "j").orElseThrow().history().get(0).outcome());
    }

    @Test
    default void theCleanerClearsTheCountersOfGroupsWithNothingLeft() {
        engine().put("email", "a", JobChanges.NONE.withGroup("tenant-a"));
        engine().put("email", "b", JobChanges.NONE.withGroup("tenant-b"));
        engine().put("email", "c", JobChanges.NONE.withGroup("tenant-c").withScheduledAt(START.plusSeconds(3600)));
        engine().put("sms", "s", JobChanges.NONE.withGroup("tenant-a"));
        for (String type : List.of("email", "email", "sms")) {
            finish(acceptOne(type), true);
        }
        assertEquals(List.of("tenant-a", "tenant-b", "tenant-c"), groupsWithCounters("email"));

        cleaner().runOnce();

        assertEquals(List.of("tenant-c"), groupsWithCounters("email"), "only the group with a job left keeps its counters");
        assertEquals(List.of(), groupsWithCounters("sms"));
        assertEquals(List.of(new GroupCounts("tenant-c", 1, 0, 0)), engine().groups("email", 10, null).orElseThrow().groups());
        // A cleared group counts from zero again when a job comes.
        engine().put("email", "a2", JobChanges.NONE.withGroup("tenant-a"));
        LeasedJob running = acceptOne("email");
        assertEquals("a2", running.job().id());
        cleaner().runOnce();
        assertEquals(List.of(new GroupCounts("tenant-a", 0, 0, 1), new GroupCounts("tenant-c", 1, 0, 0)),
                engine().groups("email", 10, null).orElseThrow().groups(), "a running job's group is not idle");
    }

    @Test
    default void theIdleGroupSweepGoesOnWhereItStopped() {
        for (int i = 0; i < 5; i++) {
            engine().put("email", "j" + i, JobChanges.NONE.withGroup("g" + i));
            finish(acceptOne("email"), true);
        }
        engine().put("email", "left", JobChanges.NONE.withGroup("g2b")); // sorts between g2 and g3
        TransactionRunner runner = new TransactionRunner(store(), RetryPolicy.DEFAULT);
        int sweeps = 0;
        String after = null;
        do {
            String from = after;
            // Four keys a sweep: two groups' "ready" and "running" counters, or fewer whole ones. Per
            // sweep, not by counting sweeps: a commit reported unknown (the fault-injecting store)
            // is run again from the same place, and that attempt finds the groups already cleared.
            Groups.Swept swept = runner.run(tx -> Groups.clearIdle(tx, "email", from, 4));
            assertTrue(swept.cleared() <= 2, "a sweep reads at most its limit, so clears two groups at most: "
                    + swept.cleared());
            after = swept.after();
            sweeps++;
        } while (after != null && sweeps < 20);
        assertTrue(after == null, "the sweeps never reached the end");
        assertEquals(List.of("g2b"), groupsWithCounters("email"), "every idle group cleared, the busy one kept");
    }

    /** The groups of {@code type} that have counter keys in the store, whatever their values. */
    private List<String> groupsWithCounters(String type) {
        return new TransactionRunner(store(), RetryPolicy.DEFAULT).run(tx -> tx
                .getRange(JobKeys.groupCountsBegin(type),
                        JobKeys.groupCountsEnd(type), 0)
                .stream().map(kv -> JobKeys.groupCountKey(kv.key()).group()).distinct().toList());
    }
}
