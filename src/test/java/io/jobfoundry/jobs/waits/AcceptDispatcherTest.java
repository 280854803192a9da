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
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.records.Times;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A blocked accept is served by one transaction at a time: its dispatcher's round, or the
 * transaction that adds a job for it (the hand-off). These are the hand-off's edges: what happens
 * to a job handed to a waiter that is already gone, and to a waiter the hand-off gave nothing.
 */
class AcceptDispatcherTest {

    private static final long SECONDS = 10;
    private static final AcceptRequest PUSH = new AcceptRequest(List.of("push"), 1, null, "w");

    @TempDir
    Path folder;

    private KvStore store;
    private JobEngine engine;
    private ScheduledExecutorService pool;
    private AcceptDispatcher dispatcher;

    @BeforeEach
    void start() {
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS));
        engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), Clock.systemUTC(), EngineOptions.DEFAULT);
        pool = Executors.newScheduledThreadPool(2);
        dispatcher = new AcceptDispatcher(engine.accepting(), pool, pool, List.of("push"), null, idle -> { });
    }

    @AfterEach
    void stop() throws Exception {
        dispatcher.close();
        pool.shutdownNow();
        store.close();
    }

    /** A blocked accept, queued and served as {@link JobWaits#accept} does it. */
    private AcceptDispatcher.Waiter queued(AcceptRequest request) {
        AcceptDispatcher.Waiter waiter = dispatcher.enqueue(request);
        dispatcher.signal();
        return waiter;
    }

    /** Claims {@code waiter} once its first round, which found nothing, has let go of it. */
    private AcceptDispatcher.Waiter claimWhenIdle(AcceptDispatcher.Waiter waiter) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        for (AcceptDispatcher.Waiter claimed = dispatcher.claim(); ; claimed = dispatcher.claim()) {
            if (claimed != null) {
                assertSame(waiter, claimed);
                return claimed;
            }
            assertTrue(System.nanoTime() < deadline, "the first round never let go of the waiter");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Test
    void aClaimedWaiterCannotBeClaimedTwice() {
        AcceptDispatcher.Waiter waiter = claimWhenIdle(queued(PUSH));
        assertNull(dispatcher.claim());
        waiter.settle(List.of());
        claimWhenIdle(waiter);
    }

    @Test
    void aWaiterTheHandOffGaveNothingIsServedByTheNextRound() throws Exception {
        AcceptDispatcher.Waiter waiter = claimWhenIdle(queued(PUSH));
        // Its watch fires now, while the hand-off has it: that round passes it over.
        engine.put("push", "a", JobChanges.NONE);
        waiter.settle(List.of());
        List<LeasedJob> got = waiter.result.get(SECONDS, TimeUnit.SECONDS);
        assertEquals("a", got.get(0).job().id());
    }

    @Test
    void aJobHandedToAWaiterWhoseWorkerLeftGoesBackToTheQueue() throws Exception {
        AcceptDispatcher.Waiter waiter = claimWhenIdle(queued(PUSH));
        waiter.result.cancel(false); // its worker hung up while the hand-off ran (Suspended cancels it)
        Futures.join(engine.withWaiters((type, due) -> waiter).putAsync("push", "a", JobChanges.NONE));
        assertTrue(waiter.result.isCancelled());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        while (engine.get("push", "a").orElseThrow().state() != JobState.PENDING) {
            assertTrue(System.nanoTime() < deadline, "the job never went back to the queue");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        LeasedJob again = engine.accept(PUSH).get(0);
        assertEquals("a", again.job().id());
        assertEquals(1, engine.type("push").orElseThrow().counts().running());
    }

    /**
     * A wait that ends while a transaction takes a job for the waiter does not send the job back:
     * the waiter gets it when the transaction ends. A round that outlasts short waits (a slow
     * store, many jobs a round) would otherwise give back all it took, round after round.
     */
    @Test
    void aWaiterWhoseWaitEndsWhileATransactionServesItGetsWhatThatTransactionTakes() throws Exception {
        AcceptDispatcher.Waiter waiter = claimWhenIdle(queued(PUSH));
        waiter.waitOver();
        assertFalse(waiter.result.isDone(), "answered when the transaction that serves it ends");
        Futures.join(engine.withWaiters((type, due) -> waiter).putAsync("push", "a", JobChanges.NONE));
        assertEquals("a", waiter.result.get(SECONDS, TimeUnit.SECONDS).get(0).job().id());
        assertEquals(JobState.RUNNING, engine.get("push", "a").orElseThrow().state());
        assertNull(dispatcher.claim(), "and no transaction takes another job for it");
    }

    @Test
    void aWaiterWhoseWaitEndsIsAnsweredEmptyAtOnceOrWhenTheTransactionServingItTookNothing() throws Exception {
        AcceptDispatcher.Waiter idle = dispatcher.enqueue(PUSH); // no round has it
        idle.waitOver();
        assertEquals(List.of(), idle.result.getNow(null));

        AcceptDispatcher.Waiter served = claimWhenIdle(queued(PUSH));
        served.waitOver();
        assertFalse(served.result.isDone());
        served.settle(List.of());
        assertEquals(List.of(), served.result.get(SECONDS, TimeUnit.SECONDS));
    }

    @Test
    void aDispatcherIsLetGoOnceItsLastWaiterHasLeft() throws Exception {
        JobWaits waits = new JobWaits(engine.accepting(), pool, pool);
        Instant now = Instant.now();
        // Workers that send a fresh maxScheduledAt with every call get a dispatcher each.
        List<CompletableFuture<List<LeasedJob>>> ended = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ended.add(waits.accept(new AcceptRequest(List.of("push"), 1, now.plusMillis(i), "w"), Duration.ofMillis(5))
                    .toCompletableFuture());
        }
        for (CompletableFuture<List<LeasedJob>> wait : ended) {
            assertTrue(wait.get(SECONDS, TimeUnit.SECONDS).isEmpty());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        while (waits.dispatchers() > 0) {
            assertTrue(System.nanoTime() < deadline, waits.dispatchers() + " idle dispatchers were kept");
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        var waiting = waits.accept(new AcceptRequest(List.of("push"), 1, null, "w"), Duration.ofSeconds(SECONDS))
                .toCompletableFuture();
        assertEquals(1, waits.dispatchers());
        String id = Futures.join(engine.withWaiters(waits).createAsync("push", JobChanges.NONE)).job().id();
        assertEquals(id, waiting.get(SECONDS, TimeUnit.SECONDS).get(0).job().id());
        waits.close();
    }

    @Test
    void itServesJobsOfItsTypesDueByItsMaxScheduledAt() {
        Instant cutoff = Instant.parse("2026-11-21T10:00:00Z");
        AcceptDispatcher bounded = new AcceptDispatcher(engine.accepting(), pool, pool, List.of("push", "mail.*"), cutoff, idle -> { });
        long atCutoff = Times.micros(cutoff);
        assertTrue(bounded.serves("push", atCutoff));
        assertTrue(bounded.serves("mail.daily", atCutoff - 1));
        assertFalse(bounded.serves("push", atCutoff + 1), "due after the accept's maxScheduledAt");
        assertFalse(bounded.serves("sms", atCutoff));
        assertFalse(bounded.serves("mailer", atCutoff), "mail.* does not match mailer");
    }
}
