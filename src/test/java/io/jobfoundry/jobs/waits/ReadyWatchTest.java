package io.jobfoundry.jobs.waits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.WatchTestStore;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The watch a dispatcher's round leaves for its waiters. A round that wrote nothing sets it in its
 * own transaction, which costs waiting workers no transaction of its own; a round that wrote arms
 * it after committing, so that it has no read conflict on the ready counters every new job adds to
 * (on FoundationDB it would conflict with each of them), and yet a job made ready between the
 * round and its watch still wakes the waiters.
 */
class ReadyWatchTest {

    private static final long SECONDS = 10;

    @TempDir
    Path folder;

    private WatchTestStore store;
    private TransactionRunner runner;
    private JobEngine engine;
    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @BeforeEach
    void start() {
        store = new WatchTestStore(EmbeddedStore.open(
                EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS)));
        runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        engine = new JobEngine(runner, Clock.systemUTC(), EngineOptions.DEFAULT);
    }

    @AfterEach
    void stop() {
        pool.shutdownNow();
        timer.shutdownNow();
        store.close();
    }

    private AcceptDispatcher dispatcher(String pattern) {
        return new AcceptDispatcher(engine.accepting(), pool, timer, List.of(pattern), null, idle -> { });
    }

    private static AcceptRequest request(String pattern) {
        return new AcceptRequest(List.of(pattern), 1, null, "w");
    }

    /** Claims {@code waiter} for a hand-off once the round it was queued for is over. */
    private static AcceptDispatcher.Waiter claimAfterItsRound(AcceptDispatcher dispatcher, AcceptDispatcher.Waiter waiter) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        for (AcceptDispatcher.Waiter claimed = dispatcher.claim(); ; claimed = dispatcher.claim()) {
            if (claimed != null) {
                assertSame(waiter, claimed);
                return claimed;
            }
            assertTrue(System.nanoTime() < deadline, "the round never let go of the waiter");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Test
    void aWorkerThatWaitsForEachJobCostsThreeTransactionsAJob() throws Exception {
        AcceptDispatcher dispatcher = dispatcher("push");
        int jobs = 20;
        long before = 0;
        for (int i = -1; i < jobs; i++) {
            if (i == 0) { // the first job leaves the group marker the later ones find: count from here
                before = runner.committed();
            }
            AcceptDispatcher.Waiter waiter = dispatcher.enqueue(request("push"));
            dispatcher.signal(); // a round that finds nothing, and watches
            AcceptDispatcher.Waiter claimed = claimAfterItsRound(dispatcher, waiter);
            Futures.join(engine.withWaiters((type, due) -> claimed).putAsync("push", "j" + i, JobChanges.NONE)); // handed over
            LeasedJob job = waiter.result.get(SECONDS, TimeUnit.SECONDS).get(0);
            engine.finish("push", job.job().id(), job.lease(), true, Change.keep(), null);
        }

        // The round, the create that hands the job over, the finish: the round's watch is set in
        // the round, which wrote nothing, and not by a transaction of its own.
        assertEquals(3.0, (runner.committed() - before) / (double) jobs, 0.0);
        dispatcher.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"push", "pu*"})
    void aRoundThatTakesAJobAndLeavesAWaiterTakesNoReadConflictOnTheReadyCounters(String pattern) throws Exception {
        engine.put("push", "a", JobChanges.NONE);
        AcceptDispatcher dispatcher = dispatcher(pattern);
        AcceptDispatcher.Waiter first = dispatcher.enqueue(request(pattern));
        AcceptDispatcher.Waiter second = dispatcher.enqueue(request(pattern));
        dispatcher.signal(); // one round for both: it takes "a" and arms a watch for the other

        assertEquals("a", first.result.get(SECONDS, TimeUnit.SECONDS).get(0).job().id());
        engine.put("push", "b", JobChanges.NONE);
        assertEquals("b", second.result.get(SECONDS, TimeUnit.SECONDS).get(0).job().id(), "woken by the watch");

        assertFalse(store.writerConflictedOn(JobKeys.readyWatch("push")), "a writing round read the type's counter");
        assertFalse(store.writerConflictedOn(JobKeys.anyReadyWatch()), "a writing round read the global counter");
        dispatcher.close();
    }

    @Test
    void aRoundThatClearsEmptyGroupsTakesNoReadConflictOnTheReadyCounters() throws Exception {
        engine.put("push", "a", JobChanges.NONE.withGroup("one"));
        engine.put("push", "b", JobChanges.NONE.withGroup("two"));
        engine.accept(request("push"));
        engine.accept(request("push")); // both groups empty now, their markers left for a round to clear
        AcceptDispatcher dispatcher = dispatcher("push");
        AcceptDispatcher.Waiter waiter = dispatcher.enqueue(request("push"));
        dispatcher.signal();
        claimAfterItsRound(dispatcher, waiter).settle(List.of()); // the round is over: it cleared both

        assertNull(runner.run(tx -> tx.get(JobKeys.group("push", "one"))));
        assertNull(runner.run(tx -> tx.get(JobKeys.group("push", "two"))));
        assertFalse(store.writerConflictedOn(JobKeys.readyWatch("push")), "the round that cleared read the counter");
        engine.put("push", "c", JobChanges.NONE);
        assertEquals("c", waiter.result.get(SECONDS, TimeUnit.SECONDS).get(0).job().id(), "woken by the watch");
        dispatcher.close();
    }

    @Test
    void aJobMadeReadyBetweenAWritingRoundAndItsWatchWakesTheWaiter() throws Exception {
        engine.put("push", "a", JobChanges.NONE);
        AcceptDispatcher dispatcher = dispatcher("push");
        AcceptDispatcher.Waiter first = dispatcher.enqueue(request("push"));
        AcceptDispatcher.Waiter second = dispatcher.enqueue(request("push"));
        // The round takes "a" for the first waiter and leaves the second; "b" commits right before
        // the next attempt, the one that arms the watch: after the round's read of the counter,
        // before the watch's. The action notes what it found, should the attempts ever differ.
        AtomicReference<String> before = new AtomicReference<>();
        store.interposeBefore(store.attempts() + 2, () -> {
            before.set(first.result.isDone() && !second.result.isDone() ? "after the round" : "not after the round");
            return engine.putAsync("push", "b", JobChanges.NONE);
        });
        dispatcher.signal();

        assertEquals("a", first.result.get(SECONDS, TimeUnit.SECONDS).get(0).job().id());
        List<LeasedJob> woken = second.result.get(SECONDS, TimeUnit.SECONDS);
        assertEquals("after the round", before.get(), "the job was not made ready between the round and its watch");
        assertEquals("b", woken.get(0).job().id());
        dispatcher.close();
    }

    @Test
    void aRoundForSeveralTypesArmsTheirCountersInOneTransaction() throws Exception {
        engine.put("push", "a", JobChanges.NONE);
        AcceptDispatcher dispatcher = new AcceptDispatcher(engine.accepting(), pool, timer, List.of("push", "mail"), null, idle -> { });
        AcceptRequest both = new AcceptRequest(List.of("push", "mail"), 1, null, "w");
        AcceptDispatcher.Waiter first = dispatcher.enqueue(both);
        AcceptDispatcher.Waiter second = dispatcher.enqueue(both);
        long before = store.attempts();
        dispatcher.signal(); // takes "a" for the first, and leaves the second watching two counters

        assertEquals("a", first.result.get(SECONDS, TimeUnit.SECONDS).get(0).job().id());
        engine.put("mail", "b", JobChanges.NONE);
        assertEquals("b", second.result.get(SECONDS, TimeUnit.SECONDS).get(0).job().id());

        // The round, one transaction arming both watches, the put, the round the put woke.
        assertEquals(4, store.attempts() - before);
        dispatcher.close();
    }

    @Test
    void aWatchArmedAsTheLastWaiterLeavesIsLetGoOf() throws Exception {
        engine.put("push", "a", JobChanges.NONE);
        AcceptDispatcher dispatcher = new AcceptDispatcher(engine.accepting(), pool, timer, List.of("push"), null,
                AcceptDispatcher::retire); // as JobWaits lets go of a dispatcher whose last waiter left
        AcceptDispatcher.Waiter first = dispatcher.enqueue(request("push"));
        AcceptDispatcher.Waiter second = dispatcher.enqueue(request("push"));
        // The round takes "a" for the first; the second leaves, and the dispatcher is retired, while
        // the round arms the watch it would have waited on.
        store.interposeBefore(store.attempts() + 2, () -> {
            second.result.complete(List.of());
            return CompletableFuture.completedFuture(null);
        });
        dispatcher.signal();
        assertEquals("a", first.result.get(SECONDS, TimeUnit.SECONDS).get(0).job().id());

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        while (store.watchesAsked() == 0 || store.openWatches() > 0) { // until the watch is armed, then let go of
            assertTrue(System.nanoTime() < deadline, "a retired dispatcher kept a store watch");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        dispatcher.close();
    }
}
