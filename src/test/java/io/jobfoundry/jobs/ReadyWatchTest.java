package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.WatchTestStore;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watch a dispatcher's round leaves for its waiters: armed after the round commits, so that a
 * round that takes jobs has no read conflict on the ready counters every new job adds to (on
 * FoundationDB it would conflict with each of them), and yet a job made ready between the round
 * and its watch still wakes the waiters.
 */
class ReadyWatchTest {

    private static final long SECONDS = 10;

    @TempDir
    Path folder;

    private WatchTestStore store;
    private JobEngine engine;
    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @BeforeEach
    void start() {
        store = new WatchTestStore(EmbeddedStore.open(
                EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS)));
        engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), Clock.systemUTC(), EngineOptions.DEFAULT);
    }

    @AfterEach
    void stop() {
        pool.shutdownNow();
        timer.shutdownNow();
        store.close();
    }

    private AcceptDispatcher dispatcher(String pattern) {
        return new AcceptDispatcher(engine, pool, timer, List.of(pattern), null, idle -> { });
    }

    private static AcceptRequest request(String pattern) {
        return new AcceptRequest(List.of(pattern), 1, null, "w");
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
    void aRoundForSeveralTypesArmsTheirCountersInOneTransaction() throws Exception {
        engine.put("push", "a", JobChanges.NONE);
        AcceptDispatcher dispatcher = new AcceptDispatcher(engine, pool, timer, List.of("push", "mail"), null, idle -> { });
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
    void aJobMadeReadyBetweenTheRoundAndItsWatchWakesTheWaiter() throws Exception {
        AcceptDispatcher dispatcher = dispatcher("push");
        // Attempt 1 is the round, which finds nothing; the job commits right before attempt 2
        // arms the watch: after the round's read of the counter, before the watch's.
        store.interposeBefore(store.attempts() + 2, () -> engine.putAsync("push", "a", JobChanges.NONE));
        AcceptDispatcher.Waiter waiter = dispatcher.enqueue(request("push"));
        dispatcher.signal();

        assertEquals("a", waiter.result.get(SECONDS, TimeUnit.SECONDS).get(0).job().id());
        dispatcher.close();
    }
}
