package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.RateLimit;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.SlotKeys;
import io.jobfoundry.jobs.records.StaleRateSlots;
import io.jobfoundry.jobs.records.Times;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Concurrency and rate limits ({@code concurrency.max}, {@code concurrency.perGroup},
 * {@code rateLimit}): accept never starts more, every way out of running makes room at once and
 * wakes blocked accepts, fairness holds among the groups with room, and a changed limit counts
 * the jobs already running. Time is the mutable clock; the one wait on a timer (a rate window that
 * opens) waits on the event with a generous bound.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it.
 */
public interface FlowLimitContract extends EngineFixture {

    private void limit(String type, Integer max, Integer perGroup) {
        engine().configureType(type, s -> s.withLimits(new Concurrency(max, perGroup), s.rateLimit()));
    }

    private void rate(String type, int count, Duration window, boolean perGroup) {
        engine().configureType(type, s -> s.withLimits(s.concurrency(), new RateLimit(count, window, perGroup)));
    }

    private void addIn(String type, String id, String group) {
        engine().put(type, id, JobChanges.NONE.withGroup(group));
    }

    private Set<String> ids(List<LeasedJob> jobs) {
        Set<String> ids = new HashSet<>();
        jobs.forEach(leased -> ids.add(leased.job().id()));
        return ids;
    }

    private long running(String type) {
        return engine().type(type).orElseThrow().counts().running();
    }

    // ---- concurrency.max -------------------------------------------------------------------------

    @Test
    default void maxBoundsHowManyRunAndAFinishMakesRoomAtOnce() {
        limit("render", 2, null);
        for (int i = 0; i < 5; i++) {
            add("render", "r" + i);
        }
        List<LeasedJob> first = accept("render", 5);
        assertEquals(2, first.size(), "only max start");
        assertTrue(accept("render", 5).isEmpty(), "none while two run");
        finish(first.get(0), true);
        assertEquals(1, accept("render", 5).size(), "a finish gives its slot to the next accept");
        assertEquals(2, running("render"));
    }

    @Test
    default void everyWayOutOfRunningGivesTheSlotBack() {
        limit("render", 1, null);
        for (int i = 0; i < 6; i++) {
            add("render", "r" + i);
        }
        // A failure with attempts left: pending again (later), and the slot is free.
        LeasedJob failed = acceptOne("render");
        finish(failed, false);
        // The activity monitor's timeout.
        LeasedJob quiet = acceptOne("render");
        activity().runOnce();
        clock().advance(TypeSettings.DEFAULT.activityTimeout().plusSeconds(1));
        activity().runOnce();
        assertEquals(JobState.PENDING, engine().get("render", quiet.job().id()).orElseThrow().state());
        // Removal of a running job.
        LeasedJob removed = acceptOne("render");
        engine().remove("render", removed.job().id());
        // A cancel of a running job: the processor may still be at work, so the slot is held until
        // its next call hears of the cancel (or its activity times out).
        LeasedJob cancelled = acceptOne("render");
        engine().cancel("render", cancelled.job().id());
        assertTrue(accept("render", 1).isEmpty(), "a cancelled job still running keeps its slot");
        HaltException halt = assertThrows(HaltException.class,
                () -> engine().heartbeat("render", cancelled.job().id(), cancelled.lease(), Change.keep()));
        assertEquals(HaltReason.CANCELLED, halt.reason());
        LeasedJob last = acceptOne("render");
        assertTrue(accept("render", 1).isEmpty());
        finish(last, true);
        assertEquals(1, accept("render", 1).size());
    }

    @Test
    default void aBlockedAcceptIsWokenWhenASlotIsGivenBack() throws Exception {
        limit("render", 1, null);
        add("render", "a");
        add("render", "b");
        LeasedJob running = acceptOne("render");
        CompletableFuture<List<LeasedJob>> waiting = waits().accept(new AcceptRequest(List.of("render"), 1, null, "w"),
                Duration.ofSeconds(EVENT_SECONDS)).toCompletableFuture();
        assertFalse(waiting.isDone());
        finish(running, true);
        List<LeasedJob> got = waiting.get(EVENT_SECONDS, TimeUnit.SECONDS);
        assertEquals(1, got.size(), "the finish woke the blocked accept");
        assertEquals(1, running("render"));
    }

    @Test
    default void aLimitSetWhileJobsRunCountsThem() {
        for (int i = 0; i < 5; i++) {
            add("render", "r" + i);
        }
        List<LeasedJob> running = accept("render", 3);
        limit("render", 2, null);
        assertTrue(accept("render", 5).isEmpty(), "three run, the new limit is two");
        finish(running.get(0), true);
        assertTrue(accept("render", 5).isEmpty(), "two run: still at the limit");
        finish(running.get(1), true);
        assertEquals(1, accept("render", 5).size());
    }

    @Test
    default void aLoweredLimitHoldsNewStartsBackUntilEnoughStop() {
        limit("render", 3, null);
        for (int i = 0; i < 6; i++) {
            add("render", "r" + i);
        }
        List<LeasedJob> running = accept("render", 6);
        assertEquals(3, running.size());
        limit("render", 1, null);
        finish(running.get(0), true);
        assertTrue(accept("render", 6).isEmpty(), "two still run past the lowered limit");
        finish(running.get(1), true);
        assertTrue(accept("render", 6).isEmpty(), "one runs: at the limit");
        finish(running.get(2), true);
        assertEquals(1, accept("render", 6).size());
        limit("render", null, null);
        assertEquals(2, accept("render", 6).size(), "lifted: the rest start");
    }

    // ---- concurrency.perGroup --------------------------------------------------------------------

    @Test
    default void perGroupPassesOverFullGroupsAndServesTheOthers() {
        limit("mail", null, 1);
        for (int i = 0; i < 3; i++) {
            addIn("mail", "a" + i, "a");
            addIn("mail", "b" + i, "b");
        }
        addIn("mail", "c0", "c");
        List<LeasedJob> first = accept("mail", 10);
        assertEquals(Set.of("a0", "b0", "c0"), ids(first), "one of each group, oldest first");
        assertTrue(accept("mail", 10).isEmpty(), "every group with ready jobs is full");
        finish(first.get(0), true);
        String group = first.get(0).job().group();
        List<LeasedJob> next = accept("mail", 10);
        assertEquals(1, next.size());
        assertEquals(group, next.get(0).job().group(), "the group whose job finished is back in the ring");
        assertEquals(group + "1", next.get(0).job().id());
    }

    @Test
    default void aGroupAtItsLimitStillServesByPriority() {
        engine().configureType("mail", s -> s.withLimits(new Concurrency(null, 1), null));
        addIn("mail", "low", "a");
        engine().put("mail", "high", JobChanges.NONE.withGroup("a").withPriority(Priority.HIGH));
        addIn("mail", "b0", "b");
        LeasedJob a = accept("mail", 10).stream().filter(l -> l.job().group().equals("a")).findFirst().orElseThrow();
        assertEquals("high", a.job().id(), "high first within the group");
        finish(a, true);
        assertEquals("low", acceptOne("mail").job().id());
    }

    @Test
    default void raisingPerGroupBringsFullGroupsBack() {
        limit("mail", null, 1);
        addIn("mail", "a0", "a");
        addIn("mail", "a1", "a");
        acceptOne("mail");
        assertTrue(accept("mail", 5).isEmpty(), "the group is full (and leaves the ring)");
        limit("mail", null, 2);
        assertEquals("a1", acceptOne("mail").job().id());
    }

    @Test
    default void aJobAddedToAFullGroupWaitsForItsSlot() {
        limit("mail", null, 1);
        addIn("mail", "a0", "a");
        LeasedJob running = acceptOne("mail");
        assertTrue(accept("mail", 5).isEmpty());
        addIn("mail", "a1", "a");
        assertTrue(accept("mail", 5).isEmpty(), "a new job does not lift the group's limit");
        finish(running, true);
        assertEquals("a1", acceptOne("mail").job().id());
    }

    @Test
    default void bothLimitsHoldAtOnce() {
        limit("mail", 2, 1);
        for (int i = 0; i < 2; i++) {
            addIn("mail", "a" + i, "a");
            addIn("mail", "b" + i, "b");
            addIn("mail", "c" + i, "c");
        }
        List<LeasedJob> first = accept("mail", 10);
        assertEquals(2, first.size());
        assertEquals(2, new HashSet<>(first.stream().map(l -> l.job().group()).toList()).size(), "two groups");
        finish(first.get(0), true);
        List<LeasedJob> next = accept("mail", 10);
        assertEquals(1, next.size());
        assertFalse(next.get(0).job().group().equals(first.get(1).job().group()), "not the group still running");
    }

    // ---- rateLimit ---------------------------------------------------------------------------------

    @Test
    default void rateLimitCountsStartsInAnyWindow() {
        rate("api", 2, Duration.ofSeconds(60), false);
        for (int i = 0; i < 6; i++) {
            add("api", "r" + i);
        }
        List<LeasedJob> first = accept("api", 6);
        assertEquals(2, first.size());
        first.forEach(leased -> finish(leased, true));
        assertTrue(accept("api", 6).isEmpty(), "finishing gives no start back: the window does");
        clock().advance(Duration.ofSeconds(59));
        assertTrue(accept("api", 6).isEmpty(), "still within the window of the first two");
        clock().advance(Duration.ofSeconds(1));
        assertEquals(2, accept("api", 6).size(), "the window has passed");
    }

    @Test
    default void rateLimitPerGroupCountsEachGroupApart() {
        rate("api", 1, Duration.ofSeconds(10), true);
        for (int i = 0; i < 2; i++) {
            addIn("api", "a" + i, "a");
            addIn("api", "b" + i, "b");
        }
        assertEquals(Set.of("a0", "b0"), ids(accept("api", 4)));
        assertTrue(accept("api", 4).isEmpty());
        clock().advance(Duration.ofSeconds(10));
        assertEquals(Set.of("a1", "b1"), ids(accept("api", 4)));
    }

    @Test
    default void perGroupRateSlotsThatHoldNothingBackAreCleared() {
        rate("api", 2, Duration.ofSeconds(10), true);
        for (String group : List.of("a", "b", "c")) {
            addIn("api", group + "0", group);
        }
        assertEquals(3, accept("api", 3).size());
        clock().advance(Duration.ofSeconds(5));
        addIn("api", "d0", "d");
        addIn("api", "d1", "d");
        addIn("api", "d2", "d");
        assertEquals(2, accept("api", 3).size(), "d's two slots");
        clock().advance(Duration.ofSeconds(6));
        assertEquals(5, groupRateSlots("api").size());

        cleaner().runOnce();

        // a, b and c started 11 s ago, past the window; d's starts 6 s ago still count.
        assertEquals(List.of("d", "d"), groupRateSlots("api"));
        assertTrue(accept("api", 3).isEmpty(), "d's kept slots still hold its third start back");
        clock().advance(Duration.ofSeconds(4));
        assertEquals(Set.of("d2"), ids(accept("api", 3)));
        addIn("api", "a1", "a");
        addIn("api", "a2", "a");
        addIn("api", "a3", "a");
        assertEquals(Set.of("a1", "a2"), ids(accept("api", 3)),
                "a group whose slots were cleared starts up to its count, no more");
    }

    @Test
    default void rateSlotsOfALimitChangedAwayFromThemAreCleared() {
        rate("api", 3, Duration.ofSeconds(60), true);
        for (int i = 0; i < 3; i++) {
            addIn("api", "a" + i, "a");
            addIn("api", "b" + i, "b");
        }
        assertEquals(6, accept("api", 6).size());
        rate("api", 1, Duration.ofSeconds(60), true);
        cleaner().runOnce();
        // Each group had taken all three slots; only slot 0 is within the lowered count.
        assertEquals(List.of(0L, 0L), groupRateSlotNumbers("api"));

        rate("api", 3, Duration.ofSeconds(60), false);
        cleaner().runOnce();
        assertEquals(List.of(), groupRateSlots("api"), "a per-type limit has no use for group slots");
    }

    @Test
    default void theRateSlotSweepGoesOnWhereItStopped() {
        rate("api", 1, Duration.ofSeconds(10), true);
        for (int i = 3; i < 7; i++) {
            addIn("api", "j" + i, "g" + i);
        }
        assertEquals(4, accept("api", 7).size());
        clock().advance(Duration.ofSeconds(10));
        // The first three groups in key order start now: a sweep that began again at the start
        // would read their live slots every time and never reach the stale ones after them.
        for (int i = 0; i < 3; i++) {
            addIn("api", "j" + i, "g" + i);
        }
        assertEquals(3, accept("api", 7).size());
        TransactionRunner runner = new TransactionRunner(store(), RetryPolicy.DEFAULT);
        long now = Times.micros(clock().instant());
        int sweeps = 0;
        byte[] after = null;
        do {
            byte[] from = after;
            after = runner.run(tx -> StaleRateSlots.clear(tx, "api", from, 3, now)).after();
            sweeps++;
        } while (after != null && sweeps < 20);
        assertTrue(sweeps > 1 && after == null, "a sweep reads at most its limit and the sweeps end: " + sweeps);
        assertEquals(List.of("g0", "g1", "g2"), groupRateSlots("api"), "the stale slots cleared, the live ones kept");
    }

    /** The group of each per-group rate slot of {@code type} in the store, in key order. */
    private List<String> groupRateSlots(String type) {
        return rateSlotKeys(type).stream().map(key -> SlotKeys.groupRateSlot(key).group()).toList();
    }

    private List<Long> groupRateSlotNumbers(String type) {
        return rateSlotKeys(type).stream().map(key -> SlotKeys.groupRateSlot(key).slot()).toList();
    }

    private List<byte[]> rateSlotKeys(String type) {
        return new TransactionRunner(store(), RetryPolicy.DEFAULT).run(tx -> tx
                .getRange(SlotKeys.groupRateSlotsBegin(type), SlotKeys.groupRateSlotsEnd(type), 0)
                .stream().map(KeyValue::key).toList());
    }

    @Test
    default void aBlockedAcceptGetsAJobWhenTheWindowOpens() throws Exception {
        rate("api", 1, Duration.ofSeconds(1), false);
        add("api", "a");
        add("api", "b");
        acceptOne("api");
        CompletableFuture<List<LeasedJob>> waiting = waits().accept(new AcceptRequest(List.of("api"), 1, null, "w"),
                Duration.ofSeconds(EVENT_SECONDS)).toCompletableFuture();
        assertFalse(waiting.isDone());
        // Nothing in the store changes when the window opens: the dispatcher's timer, set for the
        // instant the slot frees by the engine's clock, runs the round that hands the job out.
        clock().advance(Duration.ofSeconds(1));
        assertEquals(List.of("b"), waiting.get(EVENT_SECONDS, TimeUnit.SECONDS).stream().map(l -> l.job().id()).toList());
    }

    // ---- settings ------------------------------------------------------------------------------------

    @Test
    default void limitsAreKeptAndShownAndBadOnesChangeNothing() {
        engine().configureType("api", s -> s.withLimits(new Concurrency(5, 2),
                new RateLimit(100, Duration.ofMillis(1500), true)));
        TypeSettings kept = engine().type("api").orElseThrow().settings();
        assertEquals(new Concurrency(5, 2), kept.concurrency());
        assertEquals(new RateLimit(100, Duration.ofMillis(1500), true), kept.rateLimit());
        assertThrows(InvalidJobRequestException.class, () -> engine().configureType("api",
                s -> s.withLimits(new Concurrency(0, null), null)));
        assertThrows(InvalidJobRequestException.class, () -> engine().configureType("api",
                s -> s.withLimits(s.concurrency(), new RateLimit(1, Duration.ofDays(2), false))));
        assertEquals(kept, engine().type("api").orElseThrow().settings());
        engine().configureType("api", s -> s.withLimits(Concurrency.NONE, null));
        assertNull(engine().type("api").orElseThrow().settings().rateLimit());
        assertFalse(engine().type("api").orElseThrow().settings().limited());
    }
}
