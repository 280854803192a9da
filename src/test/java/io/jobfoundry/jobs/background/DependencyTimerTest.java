package io.jobfoundry.jobs.background;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dependency timer in real time: its safety-net sweep is an hour, so a waiting job that
 * reaches its worker within the test's bound was woken by the watch on markers, not by a poll.
 * Waits are on real events (a blocked accept, the timer's runs) with generous bounds.
 */
class DependencyTimerTest {

    private static final Duration NEVER = Duration.ofHours(1);

    @TempDir
    Path folder;

    private KvStore store;
    private JobEngine engine;
    private JobWaits waits;
    private DependencyTimer timer;
    private final ScheduledExecutorService timerThread = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService waitsPool = Executors.newFixedThreadPool(2);
    private final Semaphore ran = new Semaphore(0);

    @BeforeEach
    void start() {
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("deps.db")).withDurability(Durability.OS));
        engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), Clock.systemUTC(), EngineOptions.DEFAULT);
        waits = new JobWaits(engine.accepting(), waitsPool, Executors.newSingleThreadScheduledExecutor());
        timer = new DependencyTimer(new DependencyResolver(engine.context()), engine.context(), timerThread, NEVER,
                result -> ran.release());
    }

    @AfterEach
    void stop() throws Exception {
        timer.close();
        waits.close();
        timerThread.shutdownNow();
        waitsPool.shutdownNow();
        store.close();
    }

    @Test
    void aFinishWakesTheResolverAndTheWaitingJobReachesItsWorker() throws Exception {
        engine.put("extract", "a", JobChanges.NONE);
        engine.put("load", "l", JobChanges.NONE.withAfter(List.of(new JobRef("extract", "a"))));
        timer.start();
        assertTrue(ran.tryAcquire(30, TimeUnit.SECONDS), "the first run"); // nothing to do: it sleeps for an hour
        var accepted = waits.accept(new AcceptRequest(List.of("load"), 1, null, "w"), Duration.ofSeconds(20));

        LeasedJob extract = engine.accept(new AcceptRequest(List.of("extract"), 1, null, "w")).get(0);
        engine.finish("extract", "a", extract.lease(), true, Change.keep(), null);

        List<LeasedJob> jobs = accepted.toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(List.of("l"), jobs.stream().map(leased -> leased.job().id()).toList());
    }

    @Test
    void aClosedTimerNoLongerResolves() throws Exception {
        engine.put("extract", "a", JobChanges.NONE);
        engine.put("load", "l", JobChanges.NONE.withAfter(List.of(new JobRef("extract", "a"))));
        timer.start();
        assertTrue(ran.tryAcquire(30, TimeUnit.SECONDS), "the first run");
        timer.close();

        engine.cancel("extract", "a");
        var accepted = waits.accept(new AcceptRequest(List.of("load"), 1, null, "w"), Duration.ofMillis(600));

        assertEquals(List.of(), accepted.toCompletableFuture().get(30, TimeUnit.SECONDS));
        assertEquals(null, engine.get("load", "l").orElseThrow().result(), "still waiting: nothing resolved it");
        assertEquals(1, new DependencyResolver(engine.context()).runOnce().markers());
        assertEquals(JobResult.CANCELLED, engine.get("load", "l").orElseThrow().result());
    }
}
