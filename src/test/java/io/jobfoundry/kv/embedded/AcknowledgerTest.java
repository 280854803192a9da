package io.jobfoundry.kv.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store answers a commit only once its log is on disk, syncs while the committer
 * runs the next batch, answers in commit order, and stops at a failed sync. The log's sync is held
 * by the test, so each step is observed, not timed.
 */
class AcknowledgerTest {

    private static final long TIMEOUT_SECONDS = 10;
    private static final String COMMITTER = "jobfoundry-embedded-committer";
    private static final String ACKNOWLEDGER = "jobfoundry-embedded-acknowledger";
    private static final Duration TX_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path folder;

    private final HeldSync log = new HeldSync();
    /** A permit per batch committed (written to SQLite, not yet answered). */
    private final Semaphore committedBatches = new Semaphore(0);
    private EmbeddedStore store;

    @BeforeEach
    void open() {
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("store.db")),
                size -> committedBatches.release(), log, StoreFiles.CHECK_EVERY);
    }

    @AfterEach
    void close() {
        log.release.release(1000);
        store.close();
    }

    @Test
    void aCommitIsAnsweredOnlyOnceTheLogIsSynced() throws Exception {
        CompletableFuture<Object> write = store.runOnceAsync(tx -> {
            tx.set(bytes("job"), bytes("created"));
            return null;
        }, TX_TIMEOUT, Sync.ON_COMMIT);

        assertTrue(log.entered.tryAcquire(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the commit asks for a sync");
        assertFalse(write.isDone(), "answered while its sync is still under way");
        log.release.release();
        write.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertEquals(1, store.logSyncs());
        assertEquals(List.of(COMMITTER), log.syncedOn, "a lone commit wakes no other thread for its sync");
    }

    @Test
    void theNextBatchRunsDuringASyncAndIsAnsweredAfterTheBatchBeforeIt() throws Exception {
        List<String> answered = new CopyOnWriteArrayList<>();
        CountDownLatch secondRan = new CountDownLatch(1);
        CompletableFuture<Object> first = writeWhileTheNextWaits("job", "created");
        // Wait on the futures whenComplete returns: get() on the original may return before its
        // callbacks have run (a waiter is woken first), which would race the assertion below.
        CompletableFuture<Object> firstAnswered = first.whenComplete((value, failure) -> answered.add("first"));
        // A lease: a deferrable commit that reads the first batch's unsynced write.
        CompletableFuture<byte[]> second = store.runOnceAsync(tx -> {
            byte[] job = tx.get(bytes("job"));
            tx.set(bytes("lease"), bytes("held"));
            secondRan.countDown();
            return job;
        }, TX_TIMEOUT, Sync.DEFERRABLE);
        CompletableFuture<byte[]> secondAnswered =
                second.whenComplete((value, failure) -> answered.add("second"));

        assertTrue(log.entered.tryAcquire(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the first batch is being synced");
        assertTrue(secondRan.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the committer ran the next batch meanwhile");
        assertTrue(committedBatches.tryAcquire(2, TIMEOUT_SECONDS, TimeUnit.SECONDS), "both batches committed");
        assertFalse(first.isDone(), "answered before its sync");
        assertFalse(second.isDone(), "a later batch built on an unsynced write was answered first");

        log.release.release();
        assertArrayEquals(bytes("created"), secondAnswered.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        firstAnswered.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertEquals(List.of("first", "second"), answered);
        assertEquals(1, store.logSyncs(), "the lease needed no sync of its own");
    }

    /**
     * A batch of several transactions means concurrent clients, whose next requests are on their
     * way: even with nothing queued behind it, the committer leaves its sync to the acknowledger
     * and stays free for them. (A lone commit is synced by the committer itself.)
     */
    @Test
    void aBatchOfSeveralIsSyncedByTheAcknowledgerWhileTheCommitterStaysFree() throws Exception {
        // A read-only transaction, which needs no sync, holds the committer until two writes are
        // queued behind it: they make the next batch, and nothing is queued behind that.
        CountDownLatch holding = new CountDownLatch(1);
        CompletableFuture<Object> holder = store.runOnceAsync(tx -> {
            tx.get(bytes("job"));
            holding.countDown();
            awaitQueued(2);
            return null;
        }, TX_TIMEOUT, Sync.ON_COMMIT);
        assertTrue(holding.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the holding transaction did not start");
        CompletableFuture<Object> first = write("a");
        CompletableFuture<Object> second = write("b");

        assertTrue(log.entered.tryAcquire(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the batch of two is being synced");
        assertEquals(List.of(ACKNOWLEDGER), log.syncedOn);
        CountDownLatch nextRan = new CountDownLatch(1);
        store.runOnceAsync(tx -> {
            nextRan.countDown();
            return null;
        }, TX_TIMEOUT, Sync.ON_COMMIT);
        assertTrue(nextRan.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the committer was left syncing the batch itself");
        assertFalse(first.isDone() || second.isDone(), "answered before their sync");

        log.release.release();
        first.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        second.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        holder.get(TIMEOUT_SECONDS, TimeUnit.SECONDS); // answered with them or before them
    }

    /**
     * A batch with nothing to sync (reads here; leases and heartbeats alike) is answered by the
     * committer itself, however many it holds: there is no sync to keep off the committer, and a
     * hand-over would only add a thread wake-up to every answer.
     */
    @Test
    void aBatchOfReadsIsAnsweredByTheCommitterWithoutASync() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch watched = new CountDownLatch(1);
        CompletableFuture<Object> holder = store.runOnceAsync(tx -> {
            holding.countDown();
            awaitQueued(2);
            await(watched);
            return null;
        }, TX_TIMEOUT, Sync.ON_COMMIT);
        assertTrue(holding.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the holding transaction did not start");
        List<String> answeredOn = new CopyOnWriteArrayList<>();
        List<CompletableFuture<byte[]>> answers = new ArrayList<>();
        for (String key : List.of("a", "b")) {
            // Registered before the committer may run the reads, so the callback runs where the read is answered.
            answers.add(store.runOnceAsync(tx -> tx.get(bytes(key)), TX_TIMEOUT, Sync.ON_COMMIT)
                    .whenComplete((value, failure) -> answeredOn.add(Thread.currentThread().getName())));
        }
        watched.countDown();

        for (CompletableFuture<byte[]> answer : answers) {
            answer.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        holder.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertEquals(List.of(COMMITTER, COMMITTER), answeredOn);
        assertEquals(List.of(), log.syncedOn, "reads synced the log");
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the test did not release the holding transaction");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private CompletableFuture<Object> write(String key) {
        return store.runOnceAsync(tx -> {
            tx.set(bytes(key), bytes("written"));
            return null;
        }, TX_TIMEOUT, Sync.ON_COMMIT);
    }

    @Test
    void aBodyThatFailsOnAnUnsyncedWriteIsAnsweredOnlyAfterThatWriteIsSynced() throws Exception {
        CompletableFuture<Object> first = writeWhileTheNextWaits("job", "running");
        // Refused because of what the first batch wrote: a power cut could still undo that write.
        CompletableFuture<Object> refused = store.runOnceAsync(tx -> {
            if (tx.get(bytes("job")) != null) {
                throw new IllegalStateException("the job is running");
            }
            return null;
        }, TX_TIMEOUT, Sync.ON_COMMIT);

        assertTrue(log.entered.tryAcquire(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the first batch is being synced");
        assertTrue(committedBatches.tryAcquire(2, TIMEOUT_SECONDS, TimeUnit.SECONDS), "both batches ran");
        assertFalse(refused.isDone(), "a refusal resting on an unsynced write was answered before its sync");

        log.release.release();
        first.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ExecutionException failure = assertThrows(ExecutionException.class,
                () -> refused.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertTrue(failure.getCause() instanceof IllegalStateException, failure.getCause().toString());
    }

    @Test
    void aFailedSyncFailsItsBatchAsCommitUnknownAndTheStoreTakesNoMoreWork() throws Exception {
        assertTrue(store.failedForGood().isEmpty());
        log.failure = new IOException("Input/output error");
        CompletableFuture<Object> write = store.runOnceAsync(tx -> {
            tx.set(bytes("job"), bytes("created"));
            return null;
        }, TX_TIMEOUT, Sync.ON_COMMIT);
        log.release.release();

        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> write.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        RetryableStoreException unknown = (RetryableStoreException) failed.getCause();
        assertEquals(RetryableStoreException.Reason.COMMIT_UNKNOWN, unknown.reason());

        TransactionRunner runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        StoreException refused = assertThrows(StoreException.class, () -> runner.run(tx -> tx.get(bytes("job"))));
        assertFalse(refused.isRetryable(), "retrying cannot help: the log's state on disk is unknown");
        assertTrue(refused.getMessage().contains("could not sync its log"), refused.getMessage());
        assertTrue(store.failedForGood().orElseThrow().contains("restart the service"), "for the liveness probe");

        // Closing does not checkpoint what the failed sync may have lost: the file stays this
        // process's until it exits, so another open is refused rather than handed that state.
        store.close();
        assertThrows(StoreException.class, () -> EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("store.db"))));
    }

    /**
     * Starts a write whose body returns only once the caller's next transaction is queued: when
     * its batch commits, something waits for the committer, so its sync goes to the acknowledger's
     * thread and the committer goes on to the next batch.
     */
    private CompletableFuture<Object> writeWhileTheNextWaits(String key, String value) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CompletableFuture<Object> write = store.runOnceAsync(tx -> {
            tx.set(bytes(key), bytes(value));
            running.countDown();
            awaitQueued(1);
            return null;
        }, TX_TIMEOUT, Sync.ON_COMMIT);
        assertTrue(running.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "the write did not start");
        return write;
    }

    private void awaitQueued(int expected) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (store.queued() < expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the second transaction was not queued");
            }
            Thread.onSpinWait();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A log whose every sync waits for the test's permit, and fails if told to. */
    private static final class HeldSync implements LogSync {
        final Semaphore entered = new Semaphore(0);
        final Semaphore release = new Semaphore(0);
        /** The thread of each sync, in order. */
        final List<String> syncedOn = new CopyOnWriteArrayList<>();
        volatile IOException failure;

        @Override
        public void sync() throws IOException {
            syncedOn.add(Thread.currentThread().getName());
            entered.release();
            try {
                if (!release.tryAcquire(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IOException("the test never released the sync");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            if (failure != null) {
                throw failure;
            }
        }

        @Override
        public void close() {
        }
    }
}
