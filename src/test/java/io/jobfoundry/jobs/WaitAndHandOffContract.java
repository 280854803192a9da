package io.jobfoundry.jobs;

import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.accept.Accepting;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.jobfoundry.Futures;
import io.jobfoundry.jobs.accept.HandOff;
import io.jobfoundry.jobs.accept.Waiters;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobEvent;
import io.jobfoundry.jobs.model.JobNotFoundException;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.TypeScope;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.waits.JobWaits;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Waiting without polling: blocked accepts, the hand-off of a job added for one in the adding transaction, waitFor and subscriptions.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it.
 */
public interface WaitAndHandOffContract extends EngineFixture {


    @Test
    default void aBlockedAcceptIsHandedAJobAddedLater() throws Exception {
        var waiting = waits().accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofSeconds(EVENT_SECONDS))
                .toCompletableFuture();
        assertFalse(waiting.isDone());
        add("push", "later");
        List<LeasedJob> got = waiting.get(EVENT_SECONDS, TimeUnit.SECONDS);
        assertEquals("later", got.get(0).job().id());
    }

    /**
     * A confined token's accept for a glob overlapping its scope ({@link TypeScope#narrow}) takes,
     * waits for and is handed jobs of the types both globs match, types first used meanwhile
     * included, and of no other.
     */
    @Test
    default void anAcceptOfTheTypesTwoGlobsBothMatchIsHandedATypeFirstUsedWhileItWaits() throws Exception {
        List<String> narrowed = TypeScope.of(List.of("email*")).narrow(List.of("*_high"));
        add("billing_high", "b");
        add("email_low", "l");
        var waiting = waits().accept(new AcceptRequest(narrowed, 1, null, "w"), Duration.ofSeconds(EVENT_SECONDS))
                .toCompletableFuture();
        assertFalse(waiting.isDone());
        add("billing_high", "b2");
        add("email_high", "h");
        assertEquals(List.of("email_high/h"), waiting.get(EVENT_SECONDS, TimeUnit.SECONDS).stream()
                .map(l -> l.job().type() + "/" + l.job().id()).toList());

        add("email_high", "h2");
        add("emailx_high", "x");
        assertEquals(List.of("email_high/h2", "emailx_high/x"), engine().accept(new AcceptRequest(narrowed, 10, null, "w"))
                .stream().map(l -> l.job().type() + "/" + l.job().id()).sorted().toList());
        assertEquals(2, engine().type("billing_high").orElseThrow().counts().pending());
    }

    @Test
    default void aBlockedAcceptEndsEmptyWhenItsWaitEnds() throws Exception {
        var waiting = waits().accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofMillis(50))
                .toCompletableFuture();
        assertTrue(waiting.get(EVENT_SECONDS, TimeUnit.SECONDS).isEmpty());
        add("push", "a");
        acceptOne("push");
    }

    @Test
    default void manyBlockedWorkersShareJobsOnePerWorker() throws Exception {
        List<java.util.concurrent.CompletableFuture<List<LeasedJob>>> workers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            workers.add(waits().accept(new AcceptRequest(List.of("push"), 1, null, "w" + i),
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
    default void aBlockedAcceptIsHandedAJobCreatedForIt() throws Exception {
        var waiting = waits().accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofSeconds(EVENT_SECONDS))
                .toCompletableFuture();
        Added created = engine().createAsync("push", JobChanges.NONE).get(EVENT_SECONDS, TimeUnit.SECONDS);
        LeasedJob got = waiting.get(EVENT_SECONDS, TimeUnit.SECONDS).get(0);
        assertEquals(created.job().id(), got.job().id());
        assertEquals("w", engine().heartbeat("push", got.job().id(), got.lease(), Change.keep()).worker());
    }


    /** A blocked accept as the engine sees it; records what it is settled with. */
    final class RecordedHandOff implements HandOff {
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
        return engine().withWaiters(waiters);
    }

    private static RecordedHandOff waiting(String type, Instant maxScheduledAt) {
        return new RecordedHandOff(new AcceptRequest(List.of(type), 1, maxScheduledAt, "w"));
    }

    /** The counter every commit that makes a job of {@code type} ready bumps, waking its waiting accepts. */
    private byte[] readyWatchValue(String type) {
        return engine().context().runner().run(tx -> tx.get(JobKeys.readyWatch(type)));
    }

    @Test
    default void aJobAddedForABlockedAcceptIsLeasedToItInOneTransaction() {
        engine().put("push", "earlier", JobChanges.NONE);
        acceptOne("push");
        byte[] readyWatch = readyWatchValue("push");
        RecordedHandOff handOff = waiting("push", null);
        long before = engine().context().runner().committed();
        Added added = Futures.join(handingTo(handOff).putAsync("push", "a", JobChanges.NONE));
        assertEquals(1, engine().context().runner().committed() - before, "adding and leasing are one transaction");
        assertArrayEquals(readyWatch, readyWatchValue("push"), "no other waiter is woken for a job already taken");
        assertTrue(added.created());
        LeasedJob leased = handOff.once().get(0);
        assertEquals("a", leased.job().id());
        Job running = engine().get("push", "a").orElseThrow();
        assertEquals(JobState.RUNNING, running.state());
        assertEquals("w", running.worker());
        assertEquals(leased.job().startedAt(), running.startedAt());
        engine().finish("push", "a", leased.lease(), true, Change.keep(), null);
        Counts counts = engine().type("push").orElseThrow().counts();
        assertEquals(0, counts.pending());
        assertEquals(1, counts.succeeded());
    }

    @Test
    default void aHandOffTakesWhatAnAcceptWouldOldestFirst() {
        engine().put("push", "older", JobChanges.NONE.withScheduledAt(START.minusSeconds(5)));
        RecordedHandOff handOff = waiting("push", null);
        byte[] readyWatch = readyWatchValue("push");
        Futures.join(handingTo(handOff).putAsync("push", "newer", JobChanges.NONE));
        assertEquals("older", handOff.once().get(0).job().id());
        assertFalse(Arrays.equals(readyWatch, readyWatchValue("push")), "the job left ready wakes the other waiters");
        assertEquals(JobState.PENDING, engine().get("push", "newer").orElseThrow().state());
        assertEquals("newer", acceptOne("push").job().id());
    }

    /** The job taken is known by its type and its id: another type's job of the same id is another job. */
    @Test
    default void aJobLeftReadyIsAnnouncedWhenTheHandOffTookAnotherTypesJobOfTheSameId() {
        engine().put("push-other", "x", JobChanges.NONE.withScheduledAt(START.minusSeconds(5)));
        RecordedHandOff handOff = new RecordedHandOff(new AcceptRequest(List.of("push-other", "push"), 1, null, "w"));
        byte[] readyWatch = readyWatchValue("push");
        Futures.join(handingTo(handOff).putAsync("push", "x", JobChanges.NONE));
        assertEquals("push-other", handOff.once().get(0).job().type());
        assertFalse(Arrays.equals(readyWatch, readyWatchValue("push")), "the job left ready wakes the other waiters");
        assertEquals(JobState.PENDING, engine().get("push", "x").orElseThrow().state());
    }

    /**
     * Where transactions run at once (FoundationDB), a hand-off takes the job its transaction adds
     * or nothing, so creates do not fight the accept rounds over older jobs; the older job goes to
     * the next accept.
     */
    @Test
    default void onAConcurrentStoreAHandOffTakesOnlyTheJobItAdds() {
        engine().put("push", "older", JobChanges.NONE.withScheduledAt(START.minusSeconds(5)));
        RecordedHandOff handOff = waiting("push", null);
        EngineOptions concurrent = EngineOptions.DEFAULT.forConcurrentStore();
        EngineContext context = engine().context();
        JobEngine handing = new JobEngine(context, concurrent, new Accepting(context, concurrent), (type, due) -> handOff);
        Futures.join(handing.putAsync("push", "newer", JobChanges.NONE));
        assertEquals("newer", handOff.once().get(0).job().id());
        assertEquals(JobState.PENDING, engine().get("push", "older").orElseThrow().state());
        assertEquals("older", acceptOne("push").job().id());
    }

    @Test
    default void aJobThatIsNotDueIsNotHandedOff() {
        List<String> asked = new CopyOnWriteArrayList<>();
        Futures.join(withWaiters((type, due) -> {
            asked.add(type);
            return null;
        }).putAsync("push", "later", JobChanges.NONE.withScheduledAt(START.plusSeconds(60))));
        assertEquals(List.of(), asked, "no blocked accept is claimed for a job that is not due");
        assertEquals(JobState.PENDING, engine().get("push", "later").orElseThrow().state());
    }

    @Test
    default void aHandOffThatFindsNothingForItsAcceptLeavesTheJobPending() {
        RecordedHandOff handOff = waiting("push", START.minusSeconds(60));
        Futures.join(handingTo(handOff).putAsync("push", "a", JobChanges.NONE));
        assertEquals(List.of(), handOff.once());
        assertEquals(JobState.PENDING, engine().get("push", "a").orElseThrow().state());
        assertEquals(1, engine().type("push").orElseThrow().counts().due());
    }

    @Test
    default void invalidInputClaimsNoBlockedAccept() {
        List<String> asked = new CopyOnWriteArrayList<>();
        JobEngine asking = withWaiters((type, due) -> {
            asked.add(type);
            return null;
        });
        assertThrows(InvalidJobRequestException.class, () -> asking.putAsync("push", "a", JobChanges.NONE.withMaxAttempts(0)));
        assertEquals(List.of(), asked);
    }

    @Test
    default void waitForAnswersWhenTheJobReachesTheState() throws Exception {
        add("email", "a");
        var finished = waits().waitFor("email", "a", JobState.FINISHED, Duration.ofSeconds(EVENT_SECONDS)).toCompletableFuture();
        LeasedJob leased = acceptOne("email");
        assertFalse(finished.isDone());
        finish(leased, true);
        assertEquals(JobState.FINISHED, finished.get(EVENT_SECONDS, TimeUnit.SECONDS).state());
        Job timedOut = waits().waitFor("email", "a", JobState.RUNNING, Duration.ofMillis(50)).toCompletableFuture()
                .get(EVENT_SECONDS, TimeUnit.SECONDS);
        assertEquals(JobState.FINISHED, timedOut.state(), "at the timeout: the state as it is");
    }

    /** A shutdown must not be held up by long-polls: a waitFor answers the job as it is, as at its timeout. */
    @Test
    default void aShutdownAnswersEveryWaitForAtOnce() throws Exception {
        add("email", "a");
        var finished = waits().waitFor("email", "a", JobState.FINISHED, Duration.ofHours(1)).toCompletableFuture();
        assertFalse(finished.isDone());
        waits().close();
        assertEquals(JobState.PENDING, finished.get(EVENT_SECONDS, TimeUnit.SECONDS).state());
        var after = waits().waitFor("email", "a", JobState.FINISHED, Duration.ofHours(1)).toCompletableFuture();
        assertEquals(JobState.PENDING, after.get(EVENT_SECONDS, TimeUnit.SECONDS).state(), "one asked afterwards too");
    }

    /** While a shutdown's delay lasts, accepts keep nobody waiting but still hand out the jobs due. */
    @Test
    default void afterAShutdownBeganAnAcceptTakesWhatIsDueWithoutWaiting() throws Exception {
        waits().close();
        var none = waits().accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofHours(1))
                .toCompletableFuture();
        assertEquals(List.of(), none.get(EVENT_SECONDS, TimeUnit.SECONDS), "nothing due: answered at once");
        add("push", "a");
        var due = waits().accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofHours(1))
                .toCompletableFuture();
        assertEquals("a", due.get(EVENT_SECONDS, TimeUnit.SECONDS).get(0).job().id());
    }

    @Test
    default void aSubscriptionSeesTheCurrentStateThenChangesThenRemoval() throws Exception {
        add("email", "a");
        List<JobEvent> events = new CopyOnWriteArrayList<>();
        JobWaits.Subscription subscription = waits().subscribe("email", "a", events::add);
        LeasedJob leased = acceptOne("email");
        awaitEvents(events, 2);
        finish(leased, true);
        awaitEvents(events, 3);
        engine().remove("email", "a");
        subscription.ended().toCompletableFuture().get(EVENT_SECONDS, TimeUnit.SECONDS);
        assertEquals(JobState.PENDING, events.get(0).job().state());
        assertEquals(JobState.RUNNING, events.get(1).job().state());
        assertEquals(JobState.FINISHED, events.get(2).job().state());
        assertTrue(events.get(events.size() - 1).removed());
        assertThrows(JobNotFoundException.class, () -> waits().subscribe("email", "a", e -> { }));
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
