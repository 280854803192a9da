package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.BatchTooLargeException;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.FinishItem;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.HeartbeatItem;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.ItemResult;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.NewJob;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.StoreLimitException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The batch calls: many creates, finishes or heartbeats in one transaction, each item as its
 * single call would be, every item checked before anything changes, halted items independent.
 */
public interface BatchContract extends EngineFixture {

    private List<Added> createAll(List<NewJob> jobs) {
        return Futures.join(engine().batches().createAll(jobs));
    }

    private List<ItemResult> finishAll(List<FinishItem> items) {
        return Futures.join(engine().batches().finishAll(items));
    }

    private static FinishItem succeeded(LeasedJob leased) {
        return new FinishItem(leased.job().type(), leased.job().id(), leased.lease(), true, Change.keep(), null);
    }

    @Test
    default void aBatchCreateAddsAndPutsEveryJobInOneTransaction() {
        engine().put("email", "existing", JobChanges.NONE);
        long before = engine().context().runner().committed();
        List<Added> added = createAll(List.of(
                new NewJob("email", null, JobChanges.NONE.withData("{\"n\":1}")),
                new NewJob("email", "existing", JobChanges.NONE.withPriority(Priority.HIGH)),
                new NewJob("report", "r1", JobChanges.NONE.withScheduledAt(START.plusSeconds(60)))));
        assertEquals(1, engine().context().runner().committed() - before, "one transaction for the batch");
        assertEquals(List.of(true, false, true), added.stream().map(Added::created).toList());
        assertEquals("{\"n\":1}", added.get(0).job().data());
        assertEquals(Priority.HIGH, engine().get("email", "existing").orElseThrow().priority());
        assertEquals(START.plusSeconds(60), added.get(2).job().scheduledAt());
        assertEquals(2, engine().type("email").orElseThrow().counts().due());
        assertEquals(2, accept("email", 5).size(), "both due jobs of the batch are ready");
    }

    /**
     * A batch reads each of its types' settings once: every job of it still takes its own type's
     * maximum attempts, a type used for the first time is registered once, with the defaults, and
     * changed settings apply to the next batch.
     */
    @Test
    default void everyJobOfABatchTakesItsOwnTypesSettings() {
        engine().configureType("email", current -> new TypeSettings(current.activityTimeout(), 7,
                current.highRun(), current.lowRun(), current.backoffBase(), current.backoffMax()));
        List<Added> added = createAll(List.of(
                new NewJob("email", null, JobChanges.NONE),
                new NewJob("fresh", null, JobChanges.NONE),
                new NewJob("email", null, JobChanges.NONE),
                new NewJob("fresh", "f2", JobChanges.NONE),
                new NewJob("email", "e3", JobChanges.NONE.withMaxAttempts(3))));
        assertEquals(List.of(7, TypeSettings.DEFAULT.maxAttempts(), 7, TypeSettings.DEFAULT.maxAttempts(), 3),
                added.stream().map(a -> a.job().maxAttempts()).toList());
        assertEquals(TypeSettings.DEFAULT, engine().type("fresh").orElseThrow().settings());
        assertEquals(2, engine().type("fresh").orElseThrow().counts().due());
        assertEquals(1, engine().types().stream().filter(info -> info.type().equals("fresh")).count());
        engine().configureType("fresh", current -> new TypeSettings(current.activityTimeout(), 2,
                current.highRun(), current.lowRun(), current.backoffBase(), current.backoffMax()));
        assertEquals(2, createAll(List.of(new NewJob("fresh", null, JobChanges.NONE))).get(0).job().maxAttempts());
    }

    @Test
    default void aBatchWithAnInvalidItemChangesNothing() {
        assertThrows(InvalidJobRequestException.class, () -> createAll(List.of(
                new NewJob("email", "a", JobChanges.NONE),
                new NewJob("email", "b", JobChanges.NONE.withMaxAttempts(0)))));
        assertThrows(InvalidJobRequestException.class, () -> createAll(List.of(
                new NewJob("email", "a", JobChanges.NONE), new NewJob("email", "a", JobChanges.NONE))),
                "a job twice in one batch");
        assertThrows(InvalidJobRequestException.class, () -> createAll(List.of()));
        assertTrue(engine().get("email", "a").isEmpty());
    }

    @Test
    default void aBatchWhoseDataWouldNotFitOneTransactionIsRefused() {
        String data = "{\"x\":\"" + "x".repeat(60_000) + "\"}";
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < JobBatches.MAX_DATA_BYTES / 60_000 + 1; i++) {
            jobs.add(new NewJob("big", "j" + i, JobChanges.NONE.withData(data)));
        }
        assertThrows(BatchTooLargeException.class, () -> createAll(jobs));
        assertTrue(engine().get("big", "j0").isEmpty());
    }

    @Test
    default void finishedItemsAreIndependentAndHaltsNameTheirReason() {
        for (String id : List.of("ok", "failing", "lost", "removed", "cancelled")) {
            add("email", id);
        }
        Map<String, LeasedJob> held = new HashMap<>();
        for (LeasedJob leased : accept("email", 5)) {
            held.put(leased.job().id(), leased);
        }
        engine().remove("email", "removed");
        engine().cancel("email", "cancelled");
        List<ItemResult> results = finishAll(List.of(
                succeeded(held.get("ok")),
                new FinishItem("email", "failing", held.get("failing").lease(), false, Change.to("{\"tried\":1}"),
                        "smtp 451"),
                new FinishItem("email", "lost", "not-its-lease", true, Change.keep(), null),
                succeeded(held.get("removed")),
                succeeded(held.get("cancelled"))));

        assertEquals(JobResult.SUCCEEDED, results.get(0).job().result());
        assertEquals(JobState.PENDING, results.get(1).job().state(), "a failed attempt with attempts left retries");
        assertEquals("smtp 451", results.get(1).job().lastError());
        assertEquals(HaltReason.LEASE_LOST, results.get(2).halt());
        assertNull(results.get(2).job());
        assertEquals(HaltReason.REMOVED, results.get(3).halt());
        assertEquals(HaltReason.CANCELLED, results.get(4).halt());
        assertEquals(JobResult.CANCELLED, engine().get("email", "cancelled").orElseThrow().result(),
                "the cancelled run ends as its single finish would end it");
        assertEquals(JobState.RUNNING, engine().get("email", "lost").orElseThrow().state(), "untouched by a bad lease");
        assertEquals(List.of(true), finishAll(List.of(succeeded(held.get("ok")))).stream()
                .map(result -> result.job() != null).toList(), "a repeated finish is answered alike");
    }

    /**
     * Each heartbeat of a batch renews its own job's activity: the jobs of one type renewed in one
     * transaction must not share one activity key, or the activity monitor would take back all but one.
     */
    @Test
    default void aBatchOfHeartbeatsKeepsEveryJobRunningAndOnlyThoseGoQuiet() {
        engine().configureType("email", current -> new TypeSettings(Duration.ofSeconds(10), current.maxAttempts(),
                current.highRun(), current.lowRun(), current.backoffBase(), current.backoffMax()));
        for (int i = 0; i < 3; i++) {
            add("email", "j" + i);
        }
        List<LeasedJob> held = accept("email", 3);
        activity().runOnce();
        clock().advance(Duration.ofSeconds(6));
        activity().runOnce();
        List<HeartbeatItem> beats = held.stream()
                .map(leased -> new HeartbeatItem("email", leased.job().id(), leased.lease(), Change.to("{\"beat\":1}")))
                .toList();
        List<ItemResult> results = Futures.join(engine().batches().heartbeatAll(beats));
        assertTrue(results.stream().allMatch(result -> "{\"beat\":1}".equals(result.job().data())));
        clock().advance(Duration.ofSeconds(6)); // 12 s after the accept, 6 s after the heartbeats
        activity().runOnce();
        assertEquals(3, engine().type("email").orElseThrow().counts().running(), "none went quiet");
        for (int i = 0; i < 3; i++) {
            clock().advance(Duration.ofSeconds(6));
            activity().runOnce();
        }
        assertEquals(0, engine().type("email").orElseThrow().counts().running(), "every one went quiet");
        assertEquals(3, engine().type("email").orElseThrow().counts().due(), "and every one came back");
    }

    /**
     * What a batch writes is the jobs' stored records, not only the data it sends: heartbeats of
     * jobs with large data rewrite all of it, and past one transaction's size the batch is refused
     * as a whole, changing nothing.
     */
    @Test
    default void aBatchWhoseRecordsOutgrowOneTransactionIsRefusedWhole() {
        String data = "{\"x\":\"" + "x".repeat(60_000) + "\"}";
        List<LeasedJob> held = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            engine().put("heavy", "j" + i, JobChanges.NONE.withData(data));
        }
        held.addAll(accept("heavy", 100));
        held.addAll(accept("heavy", 100));
        List<HeartbeatItem> beats = held.stream()
                .map(leased -> new HeartbeatItem("heavy", leased.job().id(), leased.lease(), Change.keep())).toList();
        assertThrows(StoreLimitException.class, () -> Futures.join(engine().batches().heartbeatAll(beats)));
        assertEquals(200, engine().type("heavy").orElseThrow().counts().running(), "nothing changed");
        assertEquals(100, Futures.join(engine().batches().heartbeatAll(beats.subList(0, 100))).size(),
                "half the batch fits");
    }
}
