package io.jobfoundry.jobs.background;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.JobChanges;
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
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The due timer in real time: it must wake at a job's due time although its safety-net sleep is
 * an hour, so nothing here can pass by polling. Waits are on real events with generous bounds.
 */
class DueTimerTest {

    private static final Duration NEVER = Duration.ofHours(1);

    @TempDir
    Path folder;

    private KvStore store;
    private JobEngine engine;
    private JobWaits waits;
    private DueTimer timer;
    private final ScheduledExecutorService timerThread = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService waitsPool = Executors.newFixedThreadPool(2);
    private final AtomicInteger runs = new AtomicInteger();
    private final Semaphore ran = new Semaphore(0);

    @BeforeEach
    void start() {
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("due.db")).withDurability(Durability.OS));
        engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), Clock.systemUTC(), EngineOptions.DEFAULT);
        waits = new JobWaits(engine.accepting(), waitsPool, Executors.newSingleThreadScheduledExecutor());
        timer = new DueTimer(new DueWaker(engine.context()), engine.context(), timerThread, NEVER, result -> {
            runs.incrementAndGet();
            ran.release();
        });
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
    void aJobScheduledBeforeTheTimerStartsReachesAWaitingWorkerAtItsTime() throws Exception {
        Instant due = Instant.now().plusMillis(300);
        engine.put("mail", "later", JobChanges.NONE.withScheduledAt(due));
        timer.start();

        List<LeasedJob> jobs = waits.accept(new AcceptRequest(List.of("mail"), 1, null, "w"), Duration.ofSeconds(20))
                .toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertEquals(List.of("later"), jobs.stream().map(leased -> leased.job().id()).toList());
        assertFalse(Instant.now().isBefore(due), "handed out before its time");
    }

    @Test
    void aJobScheduledWhileTheTimerSleepsWakesItEarly() throws Exception {
        timer.start();
        awaitRuns(1); // nothing scheduled: it now sleeps for the safety net's hour
        var accepted = waits.accept(new AcceptRequest(List.of("mail"), 1, null, "w"), Duration.ofSeconds(20));

        Instant due = Instant.now().plusMillis(200);
        engine.put("mail", "soon", JobChanges.NONE.withScheduledAt(due));

        List<LeasedJob> jobs = accepted.toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(List.of("soon"), jobs.stream().map(leased -> leased.job().id()).toList());
        assertFalse(Instant.now().isBefore(due), "handed out before its time");
        assertTrue(runs.get() >= 2, "woken by the watch, then at the due time");
    }

    @Test
    void aClosedTimerNoLongerPromotes() throws Exception {
        timer.start();
        awaitRuns(1);
        timer.close();
        int before = runs.get();

        engine.put("mail", "orphan", JobChanges.NONE.withScheduledAt(Instant.now().plusMillis(50)));
        var accepted = waits.accept(new AcceptRequest(List.of("mail"), 1, null, "w"), Duration.ofMillis(600));

        assertEquals(List.of(), accepted.toCompletableFuture().get(30, TimeUnit.SECONDS));
        assertEquals(before, runs.get());
    }

    private void awaitRuns(int count) throws InterruptedException {
        assertTrue(ran.tryAcquire(count, 30, TimeUnit.SECONDS), "the timer ran");
    }
}
