package io.jobfoundry.kv.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.KvStoreContract;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.RetriesExhaustedException;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionBody;
import io.jobfoundry.kv.TransactionRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on the embedded store, plus what only a local file can promise. */
class EmbeddedStoreTest extends KvStoreContract {

    /** The process's open file descriptors, as links to what they hold (Linux). */
    private static final Path DESCRIPTORS = Path.of("/proc/self/fd");

    @TempDir
    Path folder;

    @Override
    protected KvStore openStore() {
        return EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("nested/folders/store.db")));
    }

    @Test
    void aTransactionThatWroteNothingHasNoVersionstamp() {
        CompletableFuture<Versionstamp> readOnly = runner.run(tx -> {
            tx.get(key("anything"));
            return tx.versionstamp();
        });
        CompletionException failed = assertThrows(CompletionException.class, readOnly::join);
        assertTrue(failed.getCause() instanceof StoreException, failed.getCause().toString());
    }

    @Test
    void createsItsFolderAndKeepsCommittedDataAcrossReopen() {
        Path file = folder.resolve("nested/folders/store.db");
        assertTrue(Files.exists(file));
        Versionstamp before = runner.run(tx -> {
            tx.set(key("kept"), bytes("yes"));
            return tx.versionstamp();
        }).join();
        store.close();

        store = EmbeddedStore.open(EmbeddedOptions.at(file));
        runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        assertArrayEquals(bytes("yes"), runner.run(tx -> tx.get(key("kept"))));
        Versionstamp after = runner.run(tx -> {
            tx.set(key("more"), bytes("x"));
            return tx.versionstamp();
        }).join();
        assertTrue(before.compareTo(after) < 0, "versionstamps keep increasing across restarts");
    }

    @Test
    void deferrableCommitsAreWrittenWithoutASyncAndTheNextSyncedCommitCoversThem() {
        EmbeddedStore embedded = (EmbeddedStore) store; // durability fsync, the default
        long synced = embedded.logSyncs();

        runner.run(tx -> {
            tx.set(key("lease"), bytes("deferred"));
            return null;
        }, Sync.DEFERRABLE);
        assertEquals(synced, embedded.logSyncs(), "a lease is acknowledged without waiting for the disk");
        assertArrayEquals(bytes("deferred"), runner.run(tx -> tx.get(key("lease"))));

        runner.run(tx -> {
            tx.set(key("job"), bytes("synced"));
            return null;
        });
        assertEquals(synced + 1, embedded.logSyncs(), "a job's creation waits for its sync");

        Path file = folder.resolve("nested/folders/store.db");
        store.close();
        store = EmbeddedStore.open(EmbeddedOptions.at(file));
        runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        assertArrayEquals(bytes("deferred"), runner.run(tx -> tx.get(key("lease"))));
        assertArrayEquals(bytes("synced"), runner.run(tx -> tx.get(key("job"))));
    }

    @Test
    void withDurabilityOsNothingWaitsForTheDisk() {
        store.close();
        EmbeddedStore relaxed = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("os.db")).withDurability(Durability.OS));
        store = relaxed;
        runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        runner.run(tx -> {
            tx.set(key("job"), bytes("x"));
            return null;
        });
        assertEquals(0, relaxed.logSyncs());
    }

    @Test
    void aSecondStoreOnTheSameFileIsRefusedWithAClearMessage() {
        StoreException refused = assertThrows(StoreException.class,
                () -> EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("nested/folders/store.db"))));
        assertTrue(refused.getMessage().contains("in use by another process"), refused.getMessage());
        // The first store is untouched by the attempt.
        runner.run(tx -> {
            tx.set(key("still"), bytes("works"));
            return null;
        });
    }

    @Test
    void aFileThatIsNotAJobfoundryStoreIsRefused() throws Exception {
        Path other = folder.resolve("other.db");
        try (var connection = java.sql.DriverManager.getConnection("jdbc:sqlite:" + other);
                var statement = connection.createStatement()) {
            statement.execute("PRAGMA application_id = 42");
            statement.execute("CREATE TABLE foreign_data (x)");
        }
        StoreException refused = assertThrows(StoreException.class, () -> EmbeddedStore.open(EmbeddedOptions.at(other)));
        assertTrue(refused.getMessage().contains("not a Jobfoundry store"), refused.getMessage());
    }

    @Test
    void concurrentTransactionsAreCommittedTogetherInBatches() throws Exception {
        LongAccumulator largestBatch = reopenMeasuringBatches("batched.db");
        runConcurrently(16, i -> {
            for (int j = 0; j < 50; j++) {
                int n = j;
                runner.run(tx -> {
                    tx.set(key("t", i, n), bytes("x"));
                    return null;
                });
            }
        });
        assertTrue(largestBatch.get() > 1, "16 concurrent writers must share syncs, largest batch " + largestBatch.get());
        assertEquals(800, runner.run(tx -> tx.getRange(key("t"), key("u"), 0)).size());
    }

    /**
     * A file SQLite can no longer write through its connection does not heal by retrying (moved
     * or deleted under it, its lock lost; here the connection is made read-only, which SQLite
     * answers alike, SQLITE_READONLY): the store stops, says to restart, and tells the liveness
     * probe, instead of answering every request with a 503 after its retries while the probes say
     * all is well.
     */
    @Test
    void aFileThatCannotBeWrittenStopsTheStoreUntilARestart() throws Exception {
        runner.run(tx -> {
            tx.set(key("before"), bytes("x"));
            return null;
        });
        // On the committer's thread, which owns the connection: from now on SQLite refuses writes.
        Connection connection = connection((EmbeddedStore) store);
        store.runOnce(tx -> {
            try (Statement pragma = connection.createStatement()) {
                pragma.execute("PRAGMA query_only = 1");
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
            return null;
        }, Duration.ofSeconds(EVENT_TIMEOUT_SECONDS));
        assertTrue(store.failedForGood().isEmpty());

        StoreException refused = assertThrows(StoreException.class, () -> runner.run(tx -> {
            tx.set(key("after"), bytes("y"));
            return null;
        }));
        assertFalse(refused instanceof RetryableStoreException, "not retried: " + refused);
        assertTrue(refused.getMessage().contains("restart the service"), refused.getMessage());
        assertTrue(store.failedForGood().orElseThrow().contains("can no longer write or read its file"), "for the liveness probe");
        assertThrows(StoreException.class, () -> runner.run(tx -> tx.get(key("before"))), "it takes no more work");
    }

    /**
     * Which of SQLite's codes stop the store: a file moved under it, damaged or not a database;
     * not an I/O error, which is also how a quota or a network file system's passing lock failure
     * arrive, nor a full disk or a busy lock.
     */
    @Test
    void onlyALostOrDamagedFileStopsTheStore() {
        int readonlyDbMoved = 8 | (4 << 8);
        int ioerrWrite = 10 | (3 << 8);
        int ioerrLock = 10 | (15 << 8);
        for (int code : List.of(8, readonlyDbMoved, 11, 26)) {
            assertTrue(SqliteKeySpace.lost(new java.sql.SQLException("sqlite", null, code)), "code " + code);
        }
        for (int code : List.of(10, ioerrWrite, ioerrLock, 13, 5, 7)) {
            assertFalse(SqliteKeySpace.lost(new java.sql.SQLException("sqlite", null, code)), "code " + code);
        }
    }

    /** The store's own connection, which no API hands out: only a test breaks it on purpose. */
    private static Connection connection(EmbeddedStore store) throws ReflectiveOperationException {
        var keysField = EmbeddedStore.class.getDeclaredField("keys");
        keysField.setAccessible(true);
        Object keys = keysField.get(store);
        var connectionField = SqliteKeySpace.class.getDeclaredField("connection");
        connectionField.setAccessible(true);
        return (Connection) connectionField.get(keys);
    }

    @Test
    void whenABatchCannotBeWrittenEveryTransactionInItFailsRetryablyAndNoneIsHalfApplied() throws Exception {
        store.close();
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("small.db")).withMaxBytes(256 * 1024));
        runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(12);
        try {
            Future<Object> holder = holdCommitter(pool, release);
            List<Future<Object>> small = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                int n = i;
                small.add(pool.submit(() -> store.runOnce(tx -> {
                    tx.set(key("small", n), bytes("x"));
                    return null;
                }, Duration.ofSeconds(30))));
            }
            Future<Object> tooBig = pool.submit(() -> store.runOnce(tx -> {
                for (int i = 0; i < 5; i++) {
                    tx.set(key("big", i), new byte[90_000]);
                }
                return null;
            }, Duration.ofSeconds(30)));
            awaitQueued(11);
            release.countDown();
            holder.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);

            var failure = assertThrows(ExecutionException.class,
                    () -> tooBig.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
            // Others wrote before it in its batch: it cannot be told from them as the cause, so it
            // too only learns that the batch failed.
            assertEquals(RetryableStoreException.Reason.TRANSIENT, ((RetryableStoreException) failure.getCause()).reason());
            for (Future<Object> future : small) {
                var batchFailure = assertThrows(ExecutionException.class,
                        () -> future.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
                // Innocent: retried as after any failed batch, not given up as a full store's own.
                assertEquals(RetryableStoreException.Reason.TRANSIENT,
                        ((RetryableStoreException) batchFailure.getCause()).reason());
            }
            for (int i = 0; i < 10; i++) {
                int n = i;
                assertNull(runner.run(tx -> tx.get(key("small", n))), "a failed batch leaves nothing behind");
            }
            // A retry, in a batch of its own, goes through.
            runner.run(tx -> {
                tx.set(key("small", 0), bytes("x"));
                return null;
            });
            assertArrayEquals(bytes("x"), runner.run(tx -> tx.get(key("small", 0))));
            // The one that does not fit is given up after a few attempts, not the policy's hundred.
            long before = runner.retries(RetryableStoreException.Reason.FULL);
            RetriesExhaustedException full = assertThrows(RetriesExhaustedException.class, () -> runner.run(tx -> {
                for (int i = 0; i < 5; i++) {
                    tx.set(key("big", i), new byte[90_000]);
                }
                return null;
            }));
            assertEquals(3, full.attempts());
            assertEquals(2, runner.retries(RetryableStoreException.Reason.FULL) - before);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    /**
     * The adds of a batch are written once, at its end: every transaction after an add in the same
     * batch must still read it, a rolled-back one must take its adds back, and a write replaces it.
     */
    @Test
    void transactionsOfOneBatchSeeEachOthersAddsAndARollbackTakesItsOwnBack() throws Exception {
        List<CompletableFuture<Object>> steps = inOneBatch("adds.db", List.of(
                tx -> {
                    tx.add(key("n"), 1);
                    tx.add(key("gone"), 5);
                    return null;
                },
                tx -> littleEndian(tx.get(key("n"))),
                tx -> {
                    tx.add(key("n"), 10);
                    tx.set(key("gone"), bytes("replaced"));
                    tx.add(key("never"), 1);
                    throw new IllegalStateException("rolled back");
                },
                tx -> tx.getRange(key("a"), key("z"), 0).size() * 100
                        + littleEndian(tx.get(key("n"))) * 10 + littleEndian(tx.get(key("gone"))),
                tx -> {
                    tx.clearRange(key("gone"), key("gonf"));
                    tx.add(key("n"), 100);
                    return null;
                }));

        assertEquals(1L, steps.get(1).get(), "a later transaction reads the add");
        var rolledBack = assertThrows(ExecutionException.class, () -> steps.get(2).get());
        assertTrue(rolledBack.getCause() instanceof IllegalStateException);
        assertEquals(2L * 100 + 1 * 10 + 5, steps.get(3).get(),
                "two keys, n = 1 and gone = 5: the rolled-back adds and set are not seen");
        steps.get(4).get();
        assertEquals(101, littleEndian(runner.run(tx -> tx.get(key("n")))));
        assertNull(runner.run(tx -> tx.get(key("gone"))));
        assertNull(runner.run(tx -> tx.get(key("never"))));
    }

    /**
     * A body takes its savepoint only when it first writes: one that throws before writing has
     * nothing to roll back, and the writes before and after it in the batch stand.
     */
    @Test
    void aBodyThatThrowsBeforeWritingLeavesTheRestOfItsBatch() throws Exception {
        List<CompletableFuture<Object>> outcomes = inOneBatch("savepoints.db", List.of(
                tx -> {
                    tx.set(key("before"), bytes("kept"));
                    return null;
                },
                tx -> {
                    tx.get(key("before"));
                    throw new IllegalStateException("refused after reading");
                },
                tx -> {
                    tx.set(key("undone"), bytes("never seen"));
                    throw new IllegalStateException("refused after writing");
                },
                tx -> {
                    tx.set(key("after"), bytes("kept"));
                    return null;
                }));

        outcomes.get(0).get();
        outcomes.get(3).get();
        for (CompletableFuture<Object> failed : outcomes.subList(1, 3)) {
            var thrown = assertThrows(ExecutionException.class, failed::get);
            assertTrue(thrown.getCause() instanceof IllegalStateException, thrown.getCause().toString());
        }
        assertArrayEquals(bytes("kept"), runner.run(tx -> tx.get(key("before"))));
        assertArrayEquals(bytes("kept"), runner.run(tx -> tx.get(key("after"))));
        assertNull(runner.run(tx -> tx.get(key("undone"))));
    }

    @Test
    void anAsynchronousCommitTheCommitterNeverReachesFailsAfterItsTimeoutAndIsNeverRun() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Object> holder = holdCommitter(pool, release);
            long start = System.nanoTime();
            CompletableFuture<Object> late = store.runOnceAsync(tx -> {
                tx.set(key("late"), bytes("never"));
                return null;
            }, Duration.ofMillis(50), Sync.ON_COMMIT);

            // Its 50 ms and the 2 s grace, well before the holder gives up on its own after 10 s.
            var failure = assertThrows(ExecutionException.class,
                    () -> late.get(5, TimeUnit.SECONDS));
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            RetryableStoreException timedOut = (RetryableStoreException) failure.getCause();
            assertEquals(RetryableStoreException.Reason.TIMEOUT, timedOut.reason(),
                    "never started, so it certainly did not happen");
            assertTrue(waitedMillis >= 2_000, "failed before its timeout and grace: " + waitedMillis + " ms");

            release.countDown();
            holder.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertNull(runner.run(tx -> tx.get(key("late"))), "an abandoned commit must not run later");
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    /** SQLite keeps its log beside the real file; the sync must find it there, not beside the link. */
    @Test
    void aStoreOpenedThroughALinkSyncsTheLogBesideTheRealFile() throws Exception {
        store.close();
        Path real = folder.resolve("real/store.db");
        Files.createDirectories(real.getParent());
        Path link = Files.createSymbolicLink(folder.resolve("link.db"), real);
        EmbeddedStore linked = EmbeddedStore.open(EmbeddedOptions.at(link));
        store = linked;
        runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        runner.run(tx -> {
            tx.set(key("job"), bytes("synced"));
            return null;
        });
        assertEquals(1, linked.logSyncs(), "the commit waited for a sync of the real log");
        assertTrue(Files.exists(folder.resolve("real/store.db-wal")));
        assertArrayEquals(bytes("synced"), runner.run(tx -> tx.get(key("job"))));
    }

    /**
     * Each transaction runs under a savepoint, and SQLite keeps the old content of the pages a
     * savepoint changes in a sub-journal. In a temporary file, it cost the committer a write per
     * page; the store keeps it in memory. The temporary file is unlinked as soon as it is made, so
     * only the process's open descriptors show it; they are read while the savepoint is open. A
     * plain SQLite connection given the same work shows that this work does spill.
     */
    @Test
    void transactionsKeepTheirUndoPagesInMemoryNotInATemporaryFile() throws Exception {
        assumeTrue(Files.isDirectory(DESCRIPTORS), "needs Linux's /proc");
        Set<String> before = temporaryFiles();
        Set<String> during = new HashSet<>();
        for (int round = 0; round < 2; round++) {
            byte[] value = pageFilling(round);
            runner.run(tx -> {
                for (int i = 0; i < 100; i++) {
                    tx.set(key("page", i), value);
                }
                during.addAll(temporaryFiles());
                return null;
            });
        }
        during.removeAll(before);
        assertEquals(Set.of(), during);

        try (Connection plain = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("plain.db"));
                Statement sql = plain.createStatement()) {
            sql.execute("PRAGMA journal_mode=WAL");
            sql.execute("CREATE TABLE kv (k INTEGER PRIMARY KEY, v BLOB)");
            Set<String> spilled = new HashSet<>();
            for (int round = 0; round < 2; round++) {
                sql.execute("BEGIN");
                sql.execute("SAVEPOINT tx");
                try (PreparedStatement put = plain.prepareStatement("INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)")) {
                    for (int i = 0; i < 100; i++) {
                        put.setInt(1, i);
                        put.setBytes(2, pageFilling(round));
                        put.executeUpdate();
                    }
                }
                spilled.addAll(temporaryFiles());
                sql.execute("RELEASE tx");
                sql.execute("COMMIT");
            }
            spilled.removeAll(before);
            assertFalse(spilled.isEmpty(), "the work above no longer makes SQLite spill: the check proves nothing");
        }
    }

    /** 2,000 bytes, different in each round: SQLite skips a write that changes nothing. */
    private static byte[] pageFilling(int round) {
        byte[] value = new byte[2_000];
        Arrays.fill(value, (byte) round);
        return value;
    }

    /** SQLite's temporary files this process holds open (their names begin with "etilqs_"). */
    private static Set<String> temporaryFiles() {
        Set<String> found = new HashSet<>();
        try (var open = Files.list(DESCRIPTORS)) {
            for (Path fd : (Iterable<Path>) open::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.contains("etilqs_")) {
                        found.add(target);
                    }
                } catch (IOException closedMeanwhile) {
                    // Closed between the listing and the read: not a file held open.
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    @Test
    void operationsOnAClosedStoreFailClearly() {
        store.close();
        StoreException closed = assertThrows(StoreException.class, () -> runner.run(tx -> tx.get(key("a"))));
        assertTrue(closed.getMessage().contains("closed"));
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("nested/folders/store.db")));
    }

    @Test
    void pendingWatchesFailWhenTheStoreCloses() throws Exception {
        CompletableFuture<Void> watch = runner.run(tx -> tx.watch(key("w")));
        store.close();
        var failure = assertThrows(ExecutionException.class,
                () -> watch.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertTrue(failure.getCause() instanceof StoreException);
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("nested/folders/store.db")));
    }

    /**
     * A lone commit is answered on the committer's own thread. Its callback may start the next
     * transaction, as one answered by the acknowledger may; it may not wait for one, and a body may
     * not start one.
     */
    @Test
    void aCommitsCallbackOnTheCommitterMayStartATransactionButNotWaitForOne() throws Exception {
        Duration timeout = Duration.ofSeconds(30);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Object> first = store.runOnceAsync(tx -> {
            await(release); // the callbacks below are attached before the commit is answered
            tx.set(key("a"), bytes("1"));
            return null;
        }, timeout, Sync.ON_COMMIT);
        List<String> answeredOn = new CopyOnWriteArrayList<>();
        CompletableFuture<byte[]> next = first.thenCompose(ignored -> {
            answeredOn.add(Thread.currentThread().getName());
            return store.runOnceAsync(tx -> tx.get(key("a")), timeout, Sync.ON_COMMIT);
        });
        CompletableFuture<Object> waits = first.thenApply(ignored -> store.runOnce(tx -> null, timeout));
        release.countDown();

        assertArrayEquals(bytes("1"), next.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals(List.of("jobfoundry-embedded-committer"), answeredOn);
        var waited = assertThrows(ExecutionException.class,
                () -> waits.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertTrue(waited.getCause().getMessage().contains("callback cannot wait"), waited.getCause().toString());

        CompletableFuture<Object> nested = store.runOnce(tx -> store.runOnceAsync(inner -> null, timeout, Sync.ON_COMMIT),
                timeout);
        var refused = assertThrows(CompletionException.class, nested::join);
        assertTrue(refused.getCause().getMessage().contains("body cannot run another"), refused.getCause().toString());
    }

    /** Replaces the store with a fresh one in {@code file}; the answer holds its largest batch so far. */
    private LongAccumulator reopenMeasuringBatches(String file) {
        store.close();
        LongAccumulator largestBatch = new LongAccumulator(Math::max, 0);
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve(file)), largestBatch::accumulate);
        runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        return largestBatch;
    }

    /**
     * Runs {@code bodies} in one batch, in their order, on a store reopened at {@code file}: queued
     * one by one while the committer is held. Answers their outcomes, every one complete.
     */
    private List<CompletableFuture<Object>> inOneBatch(String file, List<TransactionBody<Object>> bodies)
            throws Exception {
        LongAccumulator largestBatch = reopenMeasuringBatches(file);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Object> holder = holdCommitter(pool, release);
            List<CompletableFuture<Object>> outcomes = new ArrayList<>();
            for (TransactionBody<Object> body : bodies) {
                outcomes.add(store.runOnceAsync(body, Duration.ofSeconds(30), Sync.ON_COMMIT));
            }
            awaitQueued(bodies.size());
            release.countDown();
            holder.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            CompletableFuture.allOf(outcomes.stream().map(outcome -> outcome.handle((value, failure) -> null))
                    .toArray(CompletableFuture[]::new)).get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertEquals(bodies.size(), largestBatch.get(), "the transactions shared one batch");
            return outcomes;
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    /**
     * Keeps the committer inside one transaction, run on {@code pool}, until {@code release}: what
     * is submitted meanwhile lands in the next batch, all together.
     */
    private Future<Object> holdCommitter(ExecutorService pool, CountDownLatch release) throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(1);
        Future<Object> holder = pool.submit(() -> store.runOnce(tx -> {
            holding.countDown();
            await(release);
            return null;
        }, Duration.ofSeconds(30)));
        assertTrue(holding.await(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS), "the holding transaction did not start");
        return holder;
    }

    private void awaitQueued(int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EVENT_TIMEOUT_SECONDS);
        while (((EmbeddedStore) store).queued() < expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("transactions were not queued");
            }
            Thread.onSpinWait();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
