package io.jobfoundry.jobs.waits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.ManualScheduler;
import io.jobfoundry.jobs.MutableClock;
import io.jobfoundry.jobs.background.DueTimer;
import io.jobfoundry.jobs.background.DueWaker;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.context.WatchBackoff;
import io.jobfoundry.jobs.context.WatchBackoffTest;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobEvent;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.WatchTestStore;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store watch that fails instead of firing (FoundationDB: too_many_watches, future_version; any
 * store: closing) is a wake-up after a {@link WatchBackoff} wait, never a loop of transactions and
 * never a waiter left hanging. Every watch here fails at once; the timers run on a clock the test
 * moves, so the backoff is counted, not slept. The waits are jittered: each must lie within the
 * bound of its place in the streak.
 */
class FailedWatchTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);
    private static final AcceptRequest PUSH = new AcceptRequest(List.of("push"), 1, null, "w");
    /** The bounds of what a waiter whose watches keep failing waits between looks. */
    private static final List<Duration> BACKOFF = WatchBackoffTest.BOUNDS;

    @TempDir
    Path folder;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T08:00:00Z"));
    private final ManualScheduler timer = new ManualScheduler(clock);
    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private WatchTestStore store;
    private JobEngine engine;

    @BeforeEach
    void start() {
        store = new WatchTestStore(EmbeddedStore.open(
                EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS)));
        store.failWatches(true);
        engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), clock, EngineOptions.DEFAULT);
    }

    @AfterEach
    void stop() {
        pool.shutdownNow();
        timer.shutdownNow();
        store.close();
    }

    /** The delay of the next task on the timer, once one due within {@code limit} is scheduled. */
    private Duration nextWithin(Duration limit, Supplier<String> stalled) throws InterruptedException {
        return timer.awaitTask(limit, PATIENCE).orElseThrow(() -> new AssertionError(stalled.get()));
    }

    @Test
    void aBlockedAcceptWhoseWatchesFailBacksOffAndStillGetsTheJob() throws Exception {
        AcceptDispatcher dispatcher = new AcceptDispatcher(engine.accepting(), pool, timer, List.of("push"), null, idle -> { });
        AcceptDispatcher.Waiter waiter = dispatcher.enqueue(PUSH);
        dispatcher.signal();

        List<Duration> waits = new ArrayList<>();
        for (int round = 0; round < BACKOFF.size(); round++) {
            Duration next = nextWithin(WatchBackoff.MAX,
                    () -> "no backoff after a failed watch but " + store.attempts() + " attempts");
            waits.add(next);
            timer.advance(next);
        }
        Duration last = nextWithin(WatchBackoff.MAX, () -> "no backoff after the last round");

        WatchBackoffTest.withinBounds(waits);
        int rounds = BACKOFF.size() + 1;
        // A round is its accept and, at most, the transaction that arms its watch.
        assertTrue(store.attempts() <= 2L * rounds, store.attempts() + " attempts in " + rounds + " rounds");

        engine.put("push", "a", JobChanges.NONE);
        assertFalse(waiter.result.isDone(), "nothing watches; only the next round can find the job");
        timer.advance(last);
        assertEquals("a", waiter.result.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).get(0).job().id());
        dispatcher.close();
    }

    @Test
    void aSubscriptionWhoseWatchFailsLooksAgainAndDeliversTheChange() throws Exception {
        engine.put("push", "a", JobChanges.NONE);
        JobWaits waits = new JobWaits(engine.accepting(), pool, timer);
        BlockingQueue<JobEvent> events = new LinkedBlockingQueue<>();
        JobWaits.Subscription subscription = waits.subscribe("push", "a", events::add);
        long first = events.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS).job().revision();

        Duration next = nextWithin(WatchBackoff.FIRST, () -> "the subscription stalled on its failed watch");
        engine.put("push", "a", JobChanges.NONE.withData("{\"n\":1}"));
        timer.advance(next);

        JobEvent changed = events.poll(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertTrue(changed != null && changed.job().revision() > first, "the change was delivered: " + changed);
        assertFalse(subscription.ended().toCompletableFuture().isDone());
        waits.close();
    }

    @Test
    void aSubscriptionThatCannotLookAgainEnds() throws Exception {
        store.failWatches(false);
        engine.put("push", "a", JobChanges.NONE);
        JobWaits waits = new JobWaits(engine.accepting(), pool, timer);
        JobWaits.Subscription subscription = waits.subscribe("push", "a", event -> { });

        store.close(); // fails the armed watch, and every look after it
        timer.advance(nextWithin(WatchBackoff.FIRST, () -> "the subscription stalled on its failed watch"));

        CompletableFuture<Void> ended = subscription.ended().toCompletableFuture();
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> ended.get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
        assertInstanceOf(StoreException.class, failed.getCause());
    }

    @Test
    void waitForWhoseWatchFailsStillAnswersWhenTheJobGetsThere() throws Exception {
        engine.put("push", "a", JobChanges.NONE);
        JobWaits waits = new JobWaits(engine.accepting(), pool, timer);
        var running = waits.waitFor("push", "a", JobState.RUNNING, Duration.ofHours(1)).toCompletableFuture();

        Duration next = nextWithin(WatchBackoff.FIRST,
                () -> "waitFor stalled on its failed watch until its timeout");
        engine.accept(PUSH);
        timer.advance(next);

        assertEquals(JobState.RUNNING, running.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).state());
        waits.close();
    }

    @Test
    void aDueTimerWhoseWatchFailsBacksOffInsteadOfRunningEveryFewMilliseconds() {
        AtomicInteger runs = new AtomicInteger();
        DueTimer due = new DueTimer(new DueWaker(engine.context()), engine.context(), timer, Duration.ofHours(1),
                result -> runs.incrementAndGet());
        due.start();
        timer.runDue();

        List<Duration> sleeps = new ArrayList<>();
        for (int i = 0; i < BACKOFF.size(); i++) {
            Duration next = timer.pending().get(0);
            sleeps.add(next);
            timer.advance(next);
        }

        WatchBackoffTest.withinBounds(sleeps);
        assertEquals(BACKOFF.size() + 1, runs.get());
        due.close();
    }
}
