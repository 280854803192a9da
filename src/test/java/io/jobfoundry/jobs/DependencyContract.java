package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.model.AfterFailure;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.GroupCounts;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobConflictException;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.NewJob;
import io.jobfoundry.jobs.model.Retention;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Dependencies (API.md): a job with {@code after} is pending but not due until each job it names
 * has finished {@code succeeded}; one that fails, is cancelled or removed ends it {@code cancelled}
 * (or, with {@code afterFailure: run}, lets it run). The resolver is driven by {@code runOnce()};
 * what a run answers is its own count, which a commit reported unknown (the fault-injected rerun)
 * may leave short, so the tests judge by the jobs and the counters.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it.
 */
public interface DependencyContract extends EngineFixture {

    private static JobRef ref(String type, String id) {
        return new JobRef(type, id);
    }

    private static JobChanges after(JobRef... jobs) {
        return JobChanges.NONE.withAfter(List.of(jobs));
    }

    private Job job(String type, String id) {
        return engine().get(type, id).orElseThrow();
    }

    private Counts counts(String type) {
        return engine().type(type).orElseThrow().counts();
    }

    private void succeed(String type) {
        finish(acceptOne(type), true);
    }

    // ---- waiting and running ------------------------------------------------------------------------

    @Test
    default void aJobIsNotDueUntilEveryJobItNamesHasSucceeded() {
        add("extract", "a");
        add("extract", "b");
        Job load = engine().put("load", "l", after(ref("extract", "a"), ref("extract", "b"))).job();
        assertEquals(JobState.PENDING, load.state());
        assertEquals(List.of(ref("extract", "a"), ref("extract", "b")), load.after());
        assertEquals(load.after(), load.waitingFor());
        assertEquals(new Counts(1, 0, 0, 0, 0, 0), counts("load"), "pending, not due");
        assertNull(engine().type("load").orElseThrow().oldestDueAt(), "a waiting job has not waited for a worker");
        assertTrue(accept("load", 1).isEmpty());

        succeed("extract");
        resolver().runOnce();
        assertEquals(1, job("load", "l").waitingFor().size());
        assertTrue(accept("load", 1).isEmpty(), "one is still to come");

        succeed("extract");
        resolver().runOnce();
        Job ready = job("load", "l");
        assertEquals(List.of(), ready.waitingFor());
        assertEquals(2, ready.after().size(), "after stays as given");
        assertEquals(new Counts(1, 1, 0, 0, 0, 0), counts("load"));
        assertEquals("l", acceptOne("load").job().id());
    }

    @Test
    default void aJobThatFailsCancelsTheJobsWaitingForItNamingItButLeavesTheirHistoryAlone() {
        engine().put("extract", "a", JobChanges.NONE.withMaxAttempts(1));
        engine().put("load", "l", after(ref("extract", "a")));
        finish(acceptOne("extract"), false);
        resolver().runOnce();
        Job load = job("load", "l");
        assertEquals(JobState.FINISHED, load.state());
        assertEquals(JobResult.CANCELLED, load.result());
        assertTrue(load.lastError().contains("job a of type extract") && load.lastError().contains("failed"),
                load.lastError());
        assertEquals(ref("extract", "a"), load.blockedBy());
        assertEquals(List.of(), load.history(), "it never ran");
        assertEquals(List.of(), load.waitingFor());
        assertEquals(new Counts(0, 0, 0, 0, 0, 1), counts("load"));
    }

    @Test
    default void afterFailureRunRunsTheJobWhenADependencyIsCancelled() {
        add("extract", "a");
        add("extract", "b");
        engine().put("load", "l", after(ref("extract", "a"), ref("extract", "b")).withAfterFailure(AfterFailure.RUN));
        engine().cancel("extract", "a");
        resolver().runOnce();
        assertEquals(List.of(ref("extract", "b")), job("load", "l").waitingFor(), "still waits for the other");
        succeed("extract");
        resolver().runOnce();
        assertEquals("l", acceptOne("load").job().id());
    }

    @Test
    default void dependenciesAlreadyDoneAreJudgedAtOnce() {
        add("extract", "ok");
        succeed("extract");
        engine().put("extract", "bad", JobChanges.NONE);
        engine().cancel("extract", "bad");

        Job runs = engine().put("load", "runs", after(ref("extract", "ok"))).job();
        assertEquals(List.of(), runs.waitingFor(), "a job that succeeded is not waited for");
        assertEquals("runs", acceptOne("load").job().id());

        Job cancelled = engine().put("load", "never", after(ref("extract", "ok"), ref("extract", "bad"))).job();
        assertEquals(JobResult.CANCELLED, cancelled.result(), "a job that was cancelled ends it at once");
        assertTrue(cancelled.lastError().contains("job bad of type extract"), cancelled.lastError());
        Job anyway = engine().put("load", "anyway", after(ref("extract", "bad")).withAfterFailure(AfterFailure.RUN))
                .job();
        assertEquals(JobState.PENDING, anyway.state());
        assertEquals(new Counts(1, 1, 1, 0, 0, 1), counts("load"));
    }

    @Test
    default void badDependenciesAreRefusedAndChangeNothing() {
        add("extract", "a");
        InvalidJobRequestException missing = assertThrows(InvalidJobRequestException.class,
                () -> engine().put("load", "l", after(ref("extract", "a"), ref("extract", "nope"))));
        assertEquals("after[1]", missing.field());
        assertTrue(missing.getMessage().contains("nope"), missing.getMessage());
        assertEquals("after[0]", assertThrows(InvalidJobRequestException.class,
                () -> engine().put("load", "l", after(ref("load", "l")))).field(), "itself");
        assertEquals("after[1]", assertThrows(InvalidJobRequestException.class,
                () -> engine().put("load", "l", after(ref("extract", "a"), ref("extract", "a")))).field(), "twice");
        assertEquals("after[0].type", assertThrows(InvalidJobRequestException.class,
                () -> engine().put("load", "l", after(ref("bad type", "a")))).field());
        List<JobRef> many = IntStream.range(0, 101).mapToObj(i -> ref("extract", "a" + i)).toList();
        assertEquals("after", assertThrows(InvalidJobRequestException.class,
                () -> engine().put("load", "l", JobChanges.NONE.withAfter(many))).field());
        assertTrue(engine().get("load", "l").isEmpty());
        assertEquals(Counts.NONE, engine().type("load").map(info -> info.counts()).orElse(Counts.NONE));
    }

    // ---- parents removed, purged, run again -----------------------------------------------------------

    @Test
    default void aRemovedDependencyCancelsTheJobUnlessItHadSucceeded() {
        add("extract", "gone");
        add("extract", "done");
        engine().put("load", "a", after(ref("extract", "gone")));
        engine().put("load", "b", after(ref("extract", "done")));
        engine().remove("extract", "gone");
        LeasedJob done = acceptOne("extract");
        finish(done, true);
        engine().remove("extract", "done"); // succeeded, then removed before the resolver came
        resolver().runOnce();
        Job a = job("load", "a");
        assertEquals(JobResult.CANCELLED, a.result());
        assertTrue(a.lastError().contains("job gone of type extract") && a.lastError().contains("removed"),
                a.lastError());
        assertEquals(List.of(), job("load", "b").waitingFor());
        assertEquals("b", acceptOne("load").job().id());
    }

    @Test
    default void aDependencyPurgedByRetentionStillResolvesItsJobs() {
        engine().configureType("extract", s -> s.withRetention(new Retention(Duration.ZERO, Duration.ZERO, null)));
        add("extract", "ok");
        engine().put("extract", "bad", JobChanges.NONE.withMaxAttempts(1));
        engine().put("load", "runs", after(ref("extract", "ok")));
        engine().put("load", "never", after(ref("extract", "bad")));
        for (int i = 0; i < 2; i++) {
            LeasedJob leased = acceptOne("extract");
            finish(leased, leased.job().id().equals("ok"));
        }
        cleaner().runOnce();
        assertTrue(engine().get("extract", "ok").isEmpty() && engine().get("extract", "bad").isEmpty());
        resolver().runOnce();
        assertEquals("runs", acceptOne("load").job().id());
        assertEquals(JobResult.CANCELLED, job("load", "never").result());
    }

    @Test
    default void aDependencyRunAgainBeforeTheResolverCameIsWaitedForAgain() {
        engine().put("extract", "a", JobChanges.NONE.withMaxAttempts(1));
        engine().put("load", "l", after(ref("extract", "a")));
        finish(acceptOne("extract"), false);
        add("extract", "a"); // PUT of a finished job: it runs again
        resolver().runOnce();
        assertEquals(JobState.PENDING, job("load", "l").state(), "judged by the job as it is now");
        assertEquals(1, job("load", "l").waitingFor().size());
        succeed("extract");
        resolver().runOnce();
        assertEquals("l", acceptOne("load").job().id());
    }

    @Test
    default void aJobMadeAgainUnderARemovedDependencysIdIsNotTheOneWaitedFor() {
        add("extract", "a");
        engine().put("load", "l", after(ref("extract", "a")));
        engine().remove("extract", "a");
        add("extract", "a"); // another job with the same id, before the resolver came
        resolver().runOnce();
        assertEquals(JobResult.CANCELLED, job("load", "l").result());
    }

    @Test
    default void aRepeatingDependencyIsDoneWhenItsSeriesEnds() {
        engine().put("nightly", "n", JobChanges.NONE.withRepeat("FINISHED, +1 MINUTE"));
        engine().put("report", "r", after(ref("nightly", "n")));
        succeed("nightly");
        resolver().runOnce();
        assertEquals(1, job("report", "r").waitingFor().size(), "the series goes on");
        engine().patch("nightly", "n", JobChanges.NONE.withRepeat(null));
        clock().advance(Duration.ofMinutes(2));
        waker().runOnce();
        succeed("nightly");
        resolver().runOnce();
        assertEquals("r", acceptOne("report").job().id());
    }

    // ---- changes to a waiting job -------------------------------------------------------------------

    @Test
    default void putOfAWaitingJobReplacesItsDependenciesAndARunningOneRefusesThem() {
        add("extract", "a");
        add("extract", "b");
        engine().put("load", "l", after(ref("extract", "a")));
        assertEquals(List.of(ref("extract", "b")),
                engine().put("load", "l", after(ref("extract", "b"))).job().waitingFor());
        assertFalse(engine().put("load", "l", after(ref("extract", "b"))).created());
        engine().cancel("extract", "a"); // no longer waited for: changes nothing
        resolver().runOnce();
        assertEquals(JobState.PENDING, job("load", "l").state());
        assertEquals(new Counts(1, 0, 0, 0, 0, 0), counts("load"));
        assertEquals(List.of(), engine().put("load", "l", after()).job().waitingFor(), "after [] waits for none");
        LeasedJob running = acceptOne("load");
        assertThrows(JobConflictException.class, () -> engine().put("load", "l", after(ref("extract", "b"))));
        assertEquals(JobState.RUNNING, job("load", "l").state());
        finish(running, true);
        Job again = engine().put("load", "l", after(ref("extract", "b"))).job();
        assertEquals(List.of(ref("extract", "b")), again.waitingFor(), "a finished job runs again after its after");
        assertEquals(new Counts(1, 0, 0, 0, 0, 0), counts("load"));
    }

    @Test
    default void aWaitingJobCancelledPatchedOrRemovedKeepsTheCountsRight() {
        add("extract", "a");
        engine().put("load", "c", after(ref("extract", "a")));
        engine().put("load", "p", after(ref("extract", "a")));
        engine().put("load", "r", after(ref("extract", "a")));
        engine().patch("load", "p", JobChanges.NONE.withGroup("tenant-7").withScheduledAt(clock().instant()));
        assertEquals(List.of(new GroupCounts("", 2, 0, 0), new GroupCounts("tenant-7", 1, 0, 0)),
                engine().groups("load", 10, null).orElseThrow().groups(), "counted in the group it moved to");
        assertEquals(new Counts(3, 0, 0, 0, 0, 0), counts("load"));
        engine().cancel("load", "c");
        engine().remove("load", "r");
        assertEquals(new Counts(1, 0, 0, 0, 0, 1), counts("load"));
        succeed("extract");
        resolver().runOnce();
        assertEquals(new Counts(1, 1, 0, 0, 0, 1), counts("load"));
        assertEquals("p", acceptOne("load").job().id());
    }

    @Test
    default void aWaitingJobWithALaterTimeIsScheduledOnceItsDependenciesAreDone() {
        add("extract", "a");
        engine().put("load", "l", after(ref("extract", "a")).withScheduledAt(clock().instant().plusSeconds(3600)));
        succeed("extract");
        resolver().runOnce();
        assertEquals(new Counts(1, 0, 0, 0, 0, 0), counts("load"));
        assertTrue(accept("load", 1).isEmpty());
        clock().advance(Duration.ofHours(2));
        waker().runOnce();
        assertEquals("l", acceptOne("load").job().id());
    }

    @Test
    default void aJobOthersWaitForTakesNoNewDependencyWhichCouldCloseACycle() {
        add("extract", "a");
        add("extract", "b");
        engine().put("load", "l", after(ref("extract", "a")));
        assertThrows(JobConflictException.class, () -> engine().put("extract", "a", after(ref("load", "l"))));
        assertThrows(JobConflictException.class, () -> engine().put("extract", "a", after(ref("extract", "b"))));
        assertEquals(List.of(), job("extract", "a").waitingFor());
    }

    /** A job named in {@code after} that has already finished is no wait, so no cycle can close through it. */
    @Test
    default void aJobOthersWaitForMayNameJobsThatHaveAlreadyFinished() {
        add("extract", "a");
        engine().put("load", "l", after(ref("extract", "a")));
        add("fetch", "done");
        succeed("fetch");
        add("fetch", "dropped");
        engine().cancel("fetch", "dropped");

        Job a = engine().put("extract", "a", after(ref("fetch", "done"))).job();
        assertEquals(JobState.PENDING, a.state(), "a succeeded dependency: due");
        assertEquals(List.of(), a.waitingFor());
        assertEquals(List.of(ref("extract", "a")), job("load", "l").waitingFor(), "its dependent still waits");

        Job cancelled = engine().put("extract", "a", after(ref("fetch", "dropped"))).job();
        assertEquals(JobResult.CANCELLED, cancelled.result(), "a cancelled dependency ends it");
        resolver().runOnce();
        assertEquals(JobResult.CANCELLED, job("load", "l").result(), "and those waiting for it, as its cancel would");
    }

    /**
     * Jobs added to wait for a job while it finishes: each add either sees it finished or leaves an
     * edge its finish sees (the two conflict), so none is left waiting for good.
     */
    @Test
    default void jobsAddedWhileTheirDependencyFinishesAreNeverLeftWaiting() throws Exception {
        add("extract", "a");
        LeasedJob leased = acceptOne("extract");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> adds = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                adds.add(pool.submit(() -> IntStream.range(0, 25).forEach(i ->
                        engine().put("load", "l" + thread + "-" + i, after(ref("extract", "a"))))));
            }
            finish(leased, true);
            for (Future<?> done : adds) {
                done.get(EVENT_SECONDS, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        resolver().runOnce();
        assertEquals(new Counts(100, 100, 0, 0, 0, 0), counts("load"));
    }

    // ---- batches and scale ---------------------------------------------------------------------------

    @Test
    default void aBatchMayNameEarlierItemsButNotLaterOnes() {
        List<NewJob> forward = List.of(new NewJob("step", "1", after(ref("step", "2"))),
                new NewJob("step", "2", JobChanges.NONE));
        InvalidJobRequestException later = assertThrows(InvalidJobRequestException.class,
                () -> Futures.join(engine().batches().createAll(forward)));
        assertEquals("jobs[0].after[0]", later.field());
        assertEquals(OptionalInt.of(0), later.item(), "the item at fault");
        assertTrue(engine().get("step", "2").isEmpty(), "the batch changed nothing");
    }

    /** A chain of 1,000 jobs made in one batch, each item after the one before: run one by one. */
    @Test
    default void aChainOfAThousandJobsRunsInOrder() {
        engine().batches().createAll(chain("chain", 1000)).join();
        assertEquals(new Counts(1000, 1, 0, 0, 0, 0), counts("chain"));
        for (int i = 0; i < 1000; i++) {
            LeasedJob next = acceptOne("chain");
            assertEquals("c" + i, next.job().id());
            finish(next, true);
            resolver().runOnce();
        }
        assertEquals(new Counts(0, 0, 0, 1000, 0, 0), counts("chain"));
    }

    /** Cancelling the head of a chain of 1,000 cancels all of it in one run, a marker per job. */
    @Test
    default void aCancelCascadesDownAChainOfAThousandJobs() {
        engine().batches().createAll(chain("chain", 1000)).join();
        engine().cancel("chain", "c0");
        resolver().runOnce();
        assertEquals(new Counts(0, 0, 0, 0, 0, 1000), counts("chain"));
        Job last = job("chain", "c999");
        assertEquals(ref("chain", "c998"), last.blockedBy());
        assertTrue(last.lastError().contains("finished cancelled"), last.lastError());
    }

    /** 1,000 jobs feed ten jobs, a hundred each, which feed one. */
    @Test
    default void aFanInOfAThousandJobsResolves() {
        List<NewJob> parents = IntStream.range(0, 1000).mapToObj(i -> new NewJob("part", "p" + i, JobChanges.NONE))
                .toList();
        engine().batches().createAll(parents).join();
        List<NewJob> middle = new ArrayList<>();
        for (int m = 0; m < 10; m++) {
            int from = m * 100;
            middle.add(new NewJob("merge", "m" + m, JobChanges.NONE.withAfter(IntStream.range(from, from + 100)
                    .mapToObj(i -> ref("part", "p" + i)).toList())));
        }
        middle.add(new NewJob("total", "t", JobChanges.NONE.withAfter(IntStream.range(0, 10)
                .mapToObj(m -> ref("merge", "m" + m)).toList())));
        engine().batches().createAll(middle).join();
        for (int round = 0; round < 10; round++) {
            accept("part", 100).forEach(leased -> finish(leased, true));
        }
        resolver().runOnce();
        assertEquals(new Counts(10, 10, 0, 0, 0, 0), counts("merge"));
        accept("merge", 10).forEach(leased -> finish(leased, true));
        resolver().runOnce();
        assertEquals("t", acceptOne("total").job().id());
    }

    /** One job 1,000 others wait for: its finish writes one marker; the resolver moves them a page at a time. */
    @Test
    default void aFanOutOfAThousandJobsResolves() {
        add("source", "s");
        engine().batches().createAll(IntStream.range(0, 1000)
                .mapToObj(i -> new NewJob("sink", "k" + i, after(ref("source", "s")))).toList()).join();
        assertEquals(new Counts(1000, 0, 0, 0, 0, 0), counts("sink"));
        succeed("source");
        resolver().runOnce();
        assertEquals(new Counts(1000, 1000, 0, 0, 0, 0), counts("sink"));
        assertEquals(0, resolver().runOnce().markers(), "nothing left to resolve");
    }

    private static List<NewJob> chain(String type, int length) {
        List<NewJob> jobs = new ArrayList<>(length);
        jobs.add(new NewJob(type, "c0", JobChanges.NONE));
        for (int i = 1; i < length; i++) {
            jobs.add(new NewJob(type, "c" + i, after(ref(type, "c" + (i - 1)))));
        }
        return jobs;
    }
}
