package io.jobfoundry.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link KvStore} keeps (River's driver suite, db-scheduler's compatibility
 * test): each backend's test class only supplies the store. Everything the job engine relies on is
 * asserted here, so a new backend is correct when this suite passes against it.
 */
public abstract class KvStoreContract {

    /** Long enough for any healthy backend; only reached when something is broken. */
    protected static final long EVENT_TIMEOUT_SECONDS = 10;

    protected KvStore store;
    protected TransactionRunner runner;

    /** A fresh, empty store for one test. */
    protected abstract KvStore openStore() throws Exception;

    /** Releases the store of one test (and whatever it left behind). */
    protected void discardStore(KvStore store) throws Exception {
        store.close();
    }

    @BeforeEach
    void openFreshStore() throws Exception {
        store = openStore();
        runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
    }

    @AfterEach
    void discard() throws Exception {
        discardStore(store);
    }

    /** A store closed while the service shuts down refuses work as temporary (a 503 with Retry-After), not as a bug. */
    @Test
    void aClosedStoreRefusesTransactionsAsClosed() {
        store.close();
        assertThrows(StoreClosedException.class, () -> store.runOnce(tx -> tx.get(key("a")), Duration.ofSeconds(5)));
        assertThrows(StoreClosedException.class, () -> runner.run(tx -> tx.get(key("a"))), "not retried");
    }

    protected static byte[] key(Object... parts) {
        return Tuple.from(parts).pack();
    }

    protected static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    protected static long littleEndian(byte[] value) {
        return ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    private void put(String name, String value) {
        runner.run(tx -> {
            tx.set(key(name), bytes(value));
            return null;
        });
    }

    private List<String> names(List<KeyValue> entries) {
        return entries.stream().map(kv -> Tuple.fromBytes(kv.key()).getString(0)).collect(Collectors.toList());
    }

    // ---- point reads and writes -------------------------------------------------------------

    @Test
    void setGetClear() {
        assertNull(runner.run(tx -> tx.get(key("missing"))));
        put("a", "1");
        assertArrayEquals(bytes("1"), runner.run(tx -> tx.get(key("a"))));
        put("a", "2");
        assertArrayEquals(bytes("2"), runner.run(tx -> tx.get(key("a"))));
        runner.run(tx -> {
            tx.clear(key("a"));
            return null;
        });
        assertNull(runner.run(tx -> tx.get(key("a"))));
    }

    /** Reads asked for together: each key's value in the keys' order, this transaction's own writes seen. */
    @Test
    void getAllAnswersEachKeyInOrderWithItsOwnWrites() {
        put("a", "1");
        put("b", "2");
        List<byte[]> values = runner.run(tx -> {
            tx.set(key("c"), bytes("3"));
            tx.clear(key("b"));
            return tx.getAll(List.of(key("c"), key("missing"), key("a"), key("b"), key("a")));
        });
        assertEquals(5, values.size());
        assertArrayEquals(bytes("3"), values.get(0));
        assertNull(values.get(1));
        assertArrayEquals(bytes("1"), values.get(2));
        assertNull(values.get(3), "cleared in this transaction");
        assertArrayEquals(bytes("1"), values.get(4));
        assertEquals(List.of(), runner.run(tx -> tx.snapshot().getAll(List.of())));
    }

    @Test
    void emptyValuesAreValuesNotAbsence() {
        runner.run(tx -> {
            tx.set(key("empty"), new byte[0]);
            return null;
        });
        assertArrayEquals(new byte[0], runner.run(tx -> tx.get(key("empty"))));
    }

    @Test
    void aBodyThatThrowsCommitsNothingAndItsExceptionPassesThroughUnchanged() {
        IllegalStateException thrown = new IllegalStateException("body failed");
        IllegalStateException seen = assertThrows(IllegalStateException.class, () -> runner.run(tx -> {
            tx.set(key("a"), bytes("written before the failure"));
            tx.add(key("counter"), 1);
            throw thrown;
        }));
        assertSame(thrown, seen);
        assertNull(runner.run(tx -> tx.get(key("a"))));
        assertNull(runner.run(tx -> tx.get(key("counter"))));
    }

    // ---- range reads --------------------------------------------------------------------------

    @Test
    void rangesAreHalfOpenOrderedAndLimited() {
        for (String name : List.of("b", "a", "d", "c", "e")) {
            put(name, name);
        }
        runner.run(tx -> {
            assertEquals(List.of("b", "c", "d"), names(tx.getRange(key("b"), key("e"), 0)));
            assertEquals(List.of("b", "c"), names(tx.getRange(key("b"), key("e"), 2)));
            assertEquals(List.of("d", "c", "b"), names(tx.getRange(key("b"), key("e"), 0, true)));
            assertEquals(List.of("d", "c"), names(tx.getRange(key("b"), key("e"), 2, true)));
            assertEquals(List.of(), names(tx.getRange(key("c"), key("c"), 0)));
            assertEquals(List.of(), names(tx.getRange(key("d"), key("b"), 0)));
            assertEquals(List.of("a", "b", "c", "d", "e"), names(tx.getRange(key(), new byte[] {(byte) 0xFF}, 0)));
            assertEquals(List.of("a", "b", "c", "d", "e"), names(tx.snapshot().getRange(key("a"), key("f"), 0)));
            return null;
        });
    }

    @Test
    void rangesCompareKeysAsUnsignedBytes() {
        byte[] low = {0x01};
        byte[] high = {(byte) 0x80};
        byte[] highest = {(byte) 0xFE, 0x00};
        byte[] prefix = {(byte) 0xFE};
        runner.run(tx -> {
            tx.set(high, bytes("high"));
            tx.set(low, bytes("low"));
            tx.set(highest, bytes("highest"));
            tx.set(prefix, bytes("prefix"));
            return null;
        });
        List<KeyValue> all = runner.run(tx -> tx.getRange(new byte[] {0x00}, new byte[] {(byte) 0xFF}, 0));
        assertEquals(4, all.size());
        assertArrayEquals(low, all.get(0).key());
        assertArrayEquals(high, all.get(1).key());
        assertArrayEquals(prefix, all.get(2).key(), "a key sorts before its extensions");
        assertArrayEquals(highest, all.get(3).key());
    }

    @Test
    void rangesMergeTheTransactionsOwnSetsAndClears() {
        for (String name : List.of("a", "b", "c", "d")) {
            put(name, "committed");
        }
        runner.run(tx -> {
            tx.clear(key("b"));
            tx.set(key("bb"), bytes("own"));
            tx.clearRange(key("c"), key("d"));
            tx.set(key("e"), bytes("own"));
            assertEquals(List.of("a", "bb", "d", "e"), names(tx.getRange(key("a"), key("z"), 0)));
            assertEquals(List.of("e", "d", "bb"), names(tx.getRange(key("a"), key("z"), 3, true)));
            assertArrayEquals(bytes("own"), tx.get(key("bb")));
            assertNull(tx.get(key("c")));
            tx.set(key("c"), bytes("again"));
            assertEquals(List.of("a", "bb", "c", "d", "e"), names(tx.getRange(key("a"), key("z"), 0)));
            return null;
        });
        assertEquals(List.of("a", "bb", "c", "d", "e"), names(runner.run(tx -> tx.getRange(key("a"), key("z"), 0))));
    }

    @Test
    void clearRangeRemovesExactlyItsHalfOpenRange() {
        for (String name : List.of("a", "b", "c", "d")) {
            put(name, name);
        }
        runner.run(tx -> {
            tx.clearRange(key("b"), key("d"));
            tx.clearRange(key("x"), key("x"));
            return null;
        });
        assertEquals(List.of("a", "d"), names(runner.run(tx -> tx.getRange(key(""), key("z"), 0))));
    }

    @Test
    void clearingAnEmptyOrInvertedRangeDoesNothingAndIsNoWrite() {
        put("a", "a");
        put("c", "c");
        CompletableFuture<Versionstamp> stamp = runner.run(tx -> {
            tx.clearRange(key("c"), key("a"));
            tx.clearRange(key("b"), key("b"));
            return tx.versionstamp();
        });
        assertEquals(List.of("a", "c"), names(runner.run(tx -> tx.getRange(key(""), key("z"), 0))));
        CompletionException none = assertThrows(CompletionException.class, stamp::join, "a transaction that wrote nothing");
        assertInstanceOf(StoreException.class, none.getCause());
    }

    // ---- atomic add ---------------------------------------------------------------------------

    @Test
    void addIsLittleEndianSixtyFourBitAndTreatsMissingAsZero() {
        runner.run(tx -> {
            tx.add(key("n"), 5);
            tx.add(key("n"), -2);
            assertEquals(3, littleEndian(tx.get(key("n"))), "a transaction reads its own atomic adds");
            return null;
        });
        byte[] value = runner.run(tx -> tx.get(key("n")));
        assertEquals(8, value.length);
        assertEquals(3, littleEndian(value));
        runner.run(tx -> {
            tx.set(key("short"), new byte[] {1});
            tx.add(key("short"), 1);
            return null;
        });
        assertEquals(2, littleEndian(runner.run(tx -> tx.get(key("short")))));
    }

    @Test
    void addsAreSeenByRangeReadsAndAWriteAfterAnAddReplacesIt() {
        put("b", "x");
        runner.run(tx -> {
            tx.add(key("a"), 2); // a key that only an add creates
            tx.add(key("c"), 5);
            tx.clear(key("c")); // a clear after an add wins
            tx.add(key("d"), 7);
            tx.set(key("d"), bytes("set")); // so does a set
            tx.add(key("e"), 1);
            tx.add(key("f"), 1);
            tx.clearRange(key("f"), key("g"));
            tx.set(key("g"), new byte[] {1});
            tx.add(key("g"), 3); // an add after a set adds to what was set
            assertEquals(List.of("a", "b", "d", "e", "g"), names(tx.getRange(key("a"), key("h"), 0)));
            assertEquals(List.of("a", "b"), names(tx.getRange(key("a"), key("h"), 2)));
            assertEquals(List.of("g", "e"), names(tx.getRange(key("a"), key("h"), 2, true)));
            assertEquals(2, littleEndian(tx.getRange(key("a"), key("b"), 0).get(0).value()));
            return null;
        });
        assertEquals(List.of("a", "b", "d", "e", "g"), names(runner.run(tx -> tx.getRange(key("a"), key("h"), 0))));
        assertEquals(2, littleEndian(runner.run(tx -> tx.get(key("a")))));
        assertNull(runner.run(tx -> tx.get(key("c"))));
        assertArrayEquals(bytes("set"), runner.run(tx -> tx.get(key("d"))));
        assertEquals(1, littleEndian(runner.run(tx -> tx.get(key("e")))));
        assertNull(runner.run(tx -> tx.get(key("f"))));
        assertEquals(4, littleEndian(runner.run(tx -> tx.get(key("g")))));
    }

    /**
     * A transaction that sets a key to the value it set before gets that value, whatever it did to
     * the key in between: the embedded store skips the second write only while nothing changed it.
     */
    @Test
    void aKeySetAgainToTheSameValueHoldsItWhateverCameBetween() {
        byte[] eight = new byte[] {5, 0, 0, 0, 0, 0, 0, 0};
        runner.run(tx -> {
            tx.set(key("same"), bytes("v"));
            tx.set(key("same"), bytes("v"));
            tx.set(key("cleared"), bytes("v"));
            tx.clear(key("cleared"));
            tx.set(key("cleared"), bytes("v"));
            tx.set(key("added"), eight);
            tx.add(key("added"), 1);
            tx.set(key("added"), eight);
            tx.set(key("ranged"), bytes("v"));
            tx.clearRange(key("ranged"), key("ranged", 0));
            tx.set(key("ranged"), bytes("v"));
            tx.set(key("changed"), bytes("v"));
            tx.set(key("changed"), bytes("w"));
            tx.set(key("changed"), bytes("v"));
            assertArrayEquals(bytes("v"), tx.get(key("cleared")));
            assertEquals(5, littleEndian(tx.get(key("added"))));
            return null;
        });
        for (String name : List.of("same", "cleared", "ranged", "changed")) {
            assertArrayEquals(bytes("v"), runner.run(tx -> tx.get(key(name))), name);
        }
        assertEquals(5, littleEndian(runner.run(tx -> tx.get(key("added")))), "an add between two sets is undone by the second");
    }

    @Test
    void theAddsOfATransactionThatFailsAreNotApplied() {
        runner.run(tx -> {
            tx.add(key("n"), 1);
            return null;
        });
        assertThrows(IllegalStateException.class, () -> runner.run(tx -> {
            tx.add(key("n"), 10);
            tx.add(key("created"), 1);
            throw new IllegalStateException("the body fails after its adds");
        }));
        assertEquals(1, littleEndian(runner.run(tx -> tx.get(key("n")))));
        assertNull(runner.run(tx -> tx.get(key("created"))));
    }

    @Test
    void concurrentAtomicAddsLoseNothing() throws Exception {
        int threads = 8;
        int perThread = 100;
        runConcurrently(threads, i -> {
            for (int j = 0; j < perThread; j++) {
                runner.run(tx -> {
                    tx.add(key("counter"), 1);
                    return null;
                });
            }
        });
        assertEquals(threads * perThread, littleEndian(runner.run(tx -> tx.get(key("counter")))));
    }

    // ---- isolation ----------------------------------------------------------------------------

    @Test
    void readModifyWriteIncrementsFromManyThreadsLoseNone() throws Exception {
        int threads = 8;
        int perThread = 50;
        Set<Long> committedReads = ConcurrentHashMap.newKeySet();
        runConcurrently(threads, i -> {
            for (int j = 0; j < perThread; j++) {
                long read = runner.run(tx -> {
                    byte[] current = tx.get(key("counter"));
                    long value = current == null ? 0 : littleEndian(current);
                    tx.set(key("counter"), ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value + 1).array());
                    return value;
                });
                // Two commits that read the same value would be a lost update.
                assertTrue(committedReads.add(read), "two transactions committed after reading " + read);
            }
        });
        assertEquals(threads * perThread, littleEndian(runner.run(tx -> tx.get(key("counter")))));
    }

    @Test
    void aTransactionWhoseReadWasChangedByAnotherCommitCannotCommitUnchanged() throws Exception {
        put("k", "0");
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            AtomicInteger attempts = new AtomicInteger();
            List<Future<?>> writers = new ArrayList<>();
            List<Boolean> writerDoneDuringBody = new ArrayList<>();
            Throwable outcome = null;
            try {
                store.runOnce(tx -> {
                    attempts.incrementAndGet();
                    byte[] seen = tx.get(key("k"));
                    Future<?> writer = other.submit(() -> put("k", "other"));
                    writers.add(writer);
                    boolean done;
                    try {
                        writer.get(500, TimeUnit.MILLISECONDS);
                        done = true;
                    } catch (TimeoutException e) {
                        done = false; // a serializing backend holds the writer until this commits
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    writerDoneDuringBody.add(done);
                    tx.set(key("k"), bytes(new String(seen) + "+mine"));
                    return null;
                }, Duration.ofSeconds(5));
            } catch (RetryableStoreException e) {
                outcome = e;
            }
            writers.get(0).get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            byte[] finalValue = runner.run(tx -> tx.get(key("k")));
            if (writerDoneDuringBody.get(0)) {
                assertInstanceOf(RetryableStoreException.class, outcome, "a stale read must not commit");
                assertEquals(RetryableStoreException.Reason.CONFLICT, ((RetryableStoreException) outcome).reason());
                assertArrayEquals(bytes("other"), finalValue);
            } else {
                assertNull(outcome);
                assertArrayEquals(bytes("other"), finalValue, "the writer commits after, serially");
            }
            assertEquals(1, attempts.get());
        } finally {
            other.shutdownNow();
        }
    }

    // ---- versionstamps ------------------------------------------------------------------------

    @Test
    void versionstampsAreUniqueAndFollowCommitOrder() {
        List<Versionstamp> stamps = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int n = i;
            CompletableFuture<Versionstamp> stamp = runner.run(tx -> {
                tx.set(key("v", n), bytes("x"));
                return tx.versionstamp();
            });
            stamps.add(stamp.join());
        }
        for (int i = 1; i < stamps.size(); i++) {
            assertTrue(stamps.get(i - 1).compareTo(stamps.get(i)) < 0, "stamps must increase with commit order");
        }
    }

    @Test
    void versionstampedKeysAndValuesCarryTheCommittedStamp() throws Exception {
        Set<Versionstamp> seen = ConcurrentHashMap.newKeySet();
        runConcurrently(4, i -> {
            for (int j = 0; j < 10; j++) {
                int n = i * 100 + j;
                CompletableFuture<Versionstamp> stamp = runner.run(tx -> {
                    VersionstampKeys.Template template = TupleWriter.of("log").addIncompleteVersionstamp(0).add(n).template();
                    tx.setVersionstampedKey(template.key(), template.offset(), bytes(String.valueOf(n)));
                    byte[] value = new byte[12];
                    tx.setVersionstampedValue(key("latest", n), value, 0);
                    return tx.versionstamp();
                });
                assertTrue(seen.add(stamp.join()), "versionstamps must be unique");
            }
        });
        List<KeyValue> log = runner.run(tx -> tx.getRange(key("log"), keyAfterPrefix(key("log")), 0));
        assertEquals(40, log.size());
        Versionstamp previous = null;
        for (KeyValue entry : log) {
            Tuple decoded = Tuple.fromBytes(entry.key());
            Versionstamp stamp = decoded.getVersionstamp(1);
            assertTrue(stamp.isComplete());
            assertTrue(seen.contains(Versionstamp.complete(stamp.getTransactionVersion())), "key holds the committed stamp");
            assertEquals(decoded.getLong(2), Long.parseLong(new String(entry.value())));
            if (previous != null) {
                assertTrue(previous.compareTo(stamp) < 0);
            }
            previous = stamp;
            byte[] latest = runner.run(tx -> tx.get(key("latest", decoded.getLong(2))));
            byte[] tenBytes = java.util.Arrays.copyOf(latest, 10);
            assertArrayEquals(stamp.getTransactionVersion(), tenBytes, "value holds the same stamp as the key");
        }
    }

    @Test
    void aTransactionCannotReadBackWhatItWroteWithItsVersionstamp() {
        VersionstampKeys.Template template = TupleWriter.of("log").addIncompleteVersionstamp(0).add("x").template();
        List<TransactionBody<?>> readsBack = List.of(
                tx -> {
                    tx.setVersionstampedValue(key("v"), new byte[12], 0);
                    return tx.get(key("v"));
                },
                tx -> {
                    tx.setVersionstampedValue(key("v"), new byte[12], 0);
                    return tx.snapshot().getRange(key("a"), key("z"), 0);
                },
                tx -> {
                    tx.setVersionstampedKey(template.key(), template.offset(), bytes("1"));
                    return tx.getRange(key("log"), keyAfterPrefix(key("log")), 0);
                },
                // FoundationDB 7.3 keeps the key unreadable through a later set (or add) in the
                // same transaction: only a clear makes it known again.
                tx -> {
                    tx.setVersionstampedValue(key("v"), new byte[12], 0);
                    tx.set(key("v"), bytes("known"));
                    return tx.get(key("v"));
                },
                tx -> {
                    tx.setVersionstampedValue(key("v"), new byte[12], 0);
                    tx.add(key("v"), 1);
                    return tx.get(key("v"));
                });
        for (TransactionBody<?> body : readsBack) {
            StoreException refused = assertThrows(StoreException.class, () -> runner.run(body));
            assertFalse(refused.isRetryable());
            assertEquals(KvTransaction.UNREADABLE_VERSIONSTAMP, refused.getMessage());
        }
        assertNull(runner.run(tx -> tx.get(key("v"))), "nothing of a refused transaction is written");

        runner.run(tx -> {
            tx.setVersionstampedValue(key("v"), new byte[12], 0);
            tx.setVersionstampedValue(key("w"), new byte[12], 0);
            tx.clear(key("w"));
            assertNull(tx.get(key("w")), "a clear after it makes the key readable again");
            tx.setVersionstampedValue(key("x"), new byte[12], 0);
            tx.clearRange(key("x"), key("y"));
            assertNull(tx.get(key("x")), "so does a clear of a range holding it");
            assertEquals(List.of(), tx.getRange(key("a"), key("b"), 0), "the rest stays readable");
            return null;
        });
        assertEquals(12, runner.run(tx -> tx.get(key("v"))).length, "readable once committed");
    }

    /**
     * A key whose value a transaction versionstamped ends with what the transaction did to it
     * last: the embedded store writes such a key once, when the body is done (an accept sets its
     * type's latest activity once for every job it takes), so every later write must count.
     */
    @Test
    void aKeyWithAVersionstampedValueEndsWithItsTransactionsLastWrite() {
        byte[] eight = new byte[] {5, 0, 0, 0, 0, 0, 0, 0};
        runner.run(tx -> {
            for (String name : List.of("cleared", "ranged")) {
                tx.set(key(name), bytes("before"));
            }
            return null;
        });
        CompletableFuture<Versionstamp> stamp = runner.run(tx -> {
            for (int userVersion = 1; userVersion <= 3; userVersion++) {
                byte[] latest = new byte[12];
                latest[11] = (byte) userVersion;
                tx.setVersionstampedValue(key("latest"), latest, 0);
            }
            tx.setVersionstampedValue(key("set"), new byte[12], 0);
            byte[] reused = bytes("after");
            tx.set(key("set"), reused);
            reused[0] = 'X'; // the store took the value when it was set
            tx.setVersionstampedValue(key("cleared"), new byte[12], 0);
            tx.clear(key("cleared"));
            tx.setVersionstampedValue(key("ranged"), new byte[12], 0);
            tx.clearRange(key("ranged"), key("ranged", 0));
            tx.setVersionstampedValue(key("added"), new byte[12], 0);
            tx.set(key("added"), eight);
            tx.add(key("added"), 1);
            return tx.versionstamp();
        });
        Versionstamp committed = stamp.join();
        byte[] latest = runner.run(tx -> tx.get(key("latest")));
        assertEquals(Versionstamp.complete(committed.getTransactionVersion(), 3), Versionstamp.fromBytes(latest),
                "the last of three versionstamped values");
        assertArrayEquals(bytes("after"), runner.run(tx -> tx.get(key("set"))), "a set after it");
        assertNull(runner.run(tx -> tx.get(key("cleared"))), "a clear after it");
        assertNull(runner.run(tx -> tx.get(key("ranged"))), "a range clear after it");
        assertEquals(6, littleEndian(runner.run(tx -> tx.get(key("added")))), "a set and an add after it");
    }

    private static byte[] keyAfterPrefix(byte[] prefix) {
        byte[] end = java.util.Arrays.copyOf(prefix, prefix.length + 1);
        end[prefix.length] = (byte) 0xFF;
        return end;
    }

    // ---- watches ------------------------------------------------------------------------------

    @Test
    void aWatchFiresWhenAnotherTransactionCommitsAChange() throws Exception {
        put("w", "0");
        CompletableFuture<Void> watch = runner.run(tx -> tx.watch(key("w")));
        assertFalse(watch.isDone());
        put("w", "1");
        watch.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void aWatchFiresOnAtomicAddAndOnClearRange() throws Exception {
        put("w", "0");
        CompletableFuture<Void> onAdd = runner.run(tx -> tx.watch(key("n")));
        runner.run(tx -> {
            tx.add(key("n"), 1);
            return null;
        });
        onAdd.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        CompletableFuture<Void> onClear = runner.run(tx -> tx.watch(key("w")));
        runner.run(tx -> {
            tx.clearRange(key("a"), key("z"));
            return null;
        });
        onClear.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Many clients waiting on their own jobs: more keys watched than a commit writes. */
    @Test
    void amongManyWatchedKeysOnlyTheOnesACommitWritesFire() throws Exception {
        List<CompletableFuture<Void>> watches = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int n = i;
            watches.add(runner.run(tx -> tx.watch(key("watched-" + n))));
        }
        runner.run(tx -> {
            tx.set(key("watched-7"), bytes("changed"));
            tx.set(key("unwatched"), bytes("x"));
            return null;
        });
        watches.get(7).get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (int i = 0; i < 20; i++) {
            if (i != 7) {
                CompletableFuture<Void> other = watches.get(i);
                long wait = i == 0 ? 300 : 1; // the first waits for a wrong firing, the rest are seen by then
                assertThrows(TimeoutException.class, () -> other.get(wait, TimeUnit.MILLISECONDS),
                        "watch " + i + " fired for another key");
            }
        }
    }

    /** A bulk commit: far more keys written than watched. */
    @Test
    void aCommitOfManyKeysFiresTheFewWatchedAmongThem() throws Exception {
        CompletableFuture<Void> written = runner.run(tx -> tx.watch(key("bulk-31")));
        CompletableFuture<Void> notWritten = runner.run(tx -> tx.watch(key("elsewhere")));
        runner.run(tx -> {
            for (int i = 0; i < 100; i++) {
                tx.set(key("bulk-" + i), bytes("x"));
            }
            return null;
        });
        written.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThrows(TimeoutException.class, () -> notWritten.get(300, TimeUnit.MILLISECONDS));
    }

    @Test
    void aWatchDoesNotFireForWritesItsTransactionMadeBeforeIt() throws Exception {
        CompletableFuture<Void> watch = runner.run(tx -> {
            tx.set(key("w"), bytes("mine"));
            CompletableFuture<Void> future = tx.watch(key("w"));
            tx.set(key("other"), bytes("x"));
            return future;
        });
        assertThrows(TimeoutException.class, () -> watch.get(300, TimeUnit.MILLISECONDS));
        put("w", "theirs");
        watch.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void aWatchFiresForItsTransactionsLaterWriteOfTheKey() throws Exception {
        put("w", "before");
        CompletableFuture<Void> watch = runner.run(tx -> {
            CompletableFuture<Void> future = tx.watch(key("w"));
            tx.set(key("w"), bytes("after the watch"));
            return future;
        });
        watch.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void aCancelledWatchNeverFires() throws Exception {
        CompletableFuture<Void> cancelled = runner.run(tx -> tx.watch(key("w")));
        CompletableFuture<Void> kept = runner.run(tx -> tx.watch(key("w")));
        assertTrue(cancelled.cancel(true));
        put("w", "changed");
        kept.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertTrue(cancelled.isCancelled());
    }

    @Test
    void aWatchOfATransactionThatDoesNotCommitFails() {
        List<CompletableFuture<Void>> watches = new ArrayList<>();
        assertThrows(IllegalStateException.class, () -> runner.run(tx -> {
            watches.add(tx.watch(key("w")));
            throw new IllegalStateException("abort");
        }));
        ExecutionException failed = assertThrows(ExecutionException.class,
                () -> watches.get(0).get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(StoreException.class, failed.getCause());
    }

    // ---- retries, timeouts and limits ----------------------------------------------------------

    @Test
    void aDeferrableCommitIsACommitLikeAnyOther() throws Exception {
        CompletableFuture<Void> watch = runner.run(tx -> tx.watch(key("w")));
        runner.run(tx -> {
            tx.set(key("w"), bytes("changed"));
            return null;
        }, Sync.DEFERRABLE);
        watch.get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertArrayEquals(bytes("changed"), runner.run(tx -> tx.get(key("w"))));
    }

    @Test
    void theAsynchronousRunnerRetriesLikeTheBlockingOneAndPassesOnWhatTheBodyThrows() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        String result = runner.runAsync(tx -> {
            tx.set(key("async"), bytes("attempt " + attempts.incrementAndGet()));
            if (attempts.get() < 3) {
                throw new RetryableStoreException(RetryableStoreException.Reason.CONFLICT, "test", null);
            }
            return "done";
        }, Sync.ON_COMMIT).get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertEquals("done", result);
        assertEquals(2, runner.conflicts());
        assertArrayEquals(bytes("attempt 3"), runner.run(tx -> tx.get(key("async"))));

        ExecutionException refused = assertThrows(ExecutionException.class, () -> runner.runAsync(tx -> {
            tx.set(key("never"), bytes("x"));
            throw new IllegalStateException("the body's own failure");
        }, Sync.ON_COMMIT).get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertEquals("the body's own failure", refused.getCause().getMessage());
        assertNull(runner.run(tx -> tx.get(key("never"))), "a failed body changes nothing");

        TransactionRunner stingy = new TransactionRunner(store,
                new RetryPolicy(2, Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO, Duration.ZERO));
        ExecutionException exhausted = assertThrows(ExecutionException.class, () -> stingy.runAsync(tx -> {
            throw new RetryableStoreException(RetryableStoreException.Reason.TRANSIENT, "test", null);
        }, Sync.ON_COMMIT).get(EVENT_TIMEOUT_SECONDS, TimeUnit.SECONDS));
        assertInstanceOf(RetriesExhaustedException.class, exhausted.getCause());
    }

    @Test
    void theRunnerRetriesRetryableFailuresAndGivesUpAtItsLimit() {
        AtomicInteger attempts = new AtomicInteger();
        String result = runner.run(tx -> {
            tx.set(key("r"), bytes("attempt " + attempts.incrementAndGet()));
            if (attempts.get() < 3) {
                throw new RetryableStoreException(RetryableStoreException.Reason.CONFLICT, "test", null);
            }
            return "done";
        });
        assertEquals("done", result);
        assertArrayEquals(bytes("attempt 3"), runner.run(tx -> tx.get(key("r"))));
        assertEquals(2, runner.conflicts());
        assertEquals(2, runner.retries());
        assertEquals(2, runner.committed(), "the write and the read");

        TransactionRunner stingy = new TransactionRunner(store,
                new RetryPolicy(2, Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO, Duration.ZERO));
        RetriesExhaustedException exhausted = assertThrows(RetriesExhaustedException.class, () -> stingy.run(tx -> {
            throw new RetryableStoreException(RetryableStoreException.Reason.TRANSIENT, "test", null);
        }));
        assertEquals(2, exhausted.attempts());
    }

    @Test
    void anAttemptThatOutlivesItsTimeoutFailsRetryably() {
        RetryableStoreException timedOut = assertThrows(RetryableStoreException.class, () -> store.runOnce(tx -> {
            tx.get(key("a"));
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(400));
            tx.set(key("late"), bytes("never"));
            return null;
        }, Duration.ofMillis(100)));
        assertEquals(RetryableStoreException.Reason.TIMEOUT, timedOut.reason());
        assertNull(runner.run(tx -> tx.get(key("late"))));
    }

    @Test
    void keysValuesAndTransactionsOverFoundationDbLimitsAreRefused() {
        StoreLimitException keyTooLarge = assertThrows(StoreLimitException.class, () -> runner.run(tx -> {
            tx.set(new byte[KvTransaction.MAX_KEY_BYTES + 1], bytes("x"));
            return null;
        }));
        assertEquals(StoreLimitException.Limit.KEY_SIZE, keyTooLarge.limit());
        StoreLimitException valueTooLarge = assertThrows(StoreLimitException.class, () -> runner.run(tx -> {
            tx.set(key("big"), new byte[KvTransaction.MAX_VALUE_BYTES + 1]);
            return null;
        }));
        assertEquals(StoreLimitException.Limit.VALUE_SIZE, valueTooLarge.limit());
        StoreLimitException transactionTooLarge = assertThrows(StoreLimitException.class, () -> runner.run(tx -> {
            for (int i = 0; i <= KvTransaction.MAX_TRANSACTION_BYTES / KvTransaction.MAX_VALUE_BYTES; i++) {
                tx.set(key("chunk", i), new byte[KvTransaction.MAX_VALUE_BYTES]);
            }
            return null;
        }));
        assertEquals(StoreLimitException.Limit.TRANSACTION_SIZE, transactionTooLarge.limit());
        assertNull(runner.run(tx -> tx.get(key("chunk", 0))), "nothing of a refused transaction is written");
        runner.run(tx -> {
            tx.set(key("max"), new byte[KvTransaction.MAX_VALUE_BYTES]);
            return null;
        });
        assertEquals(KvTransaction.MAX_VALUE_BYTES, runner.run(tx -> tx.get(key("max"))).length);
    }

    @Test
    void keysAndValuesAtTheLimitsAreTakenAndOneByteMoreIsRefusedByEveryStore() {
        runner.run(tx -> {
            tx.set(new byte[KvTransaction.MAX_KEY_BYTES], bytes("longest key"));
            tx.setVersionstampedKey(new byte[KvTransaction.MAX_KEY_BYTES - KvTransaction.VERSIONSTAMP_OFFSET_BYTES], 0,
                    bytes("longest versionstamped key"));
            tx.setVersionstampedValue(key("longest"),
                    new byte[KvTransaction.MAX_VALUE_BYTES - KvTransaction.VERSIONSTAMP_OFFSET_BYTES], 0);
            return null;
        });
        assertEquals(KvTransaction.MAX_VALUE_BYTES - KvTransaction.VERSIONSTAMP_OFFSET_BYTES,
                runner.run(tx -> tx.get(key("longest"))).length);

        StoreLimitException key = assertThrows(StoreLimitException.class, () -> runner.run(tx -> {
            tx.setVersionstampedKey(new byte[KvTransaction.MAX_KEY_BYTES - KvTransaction.VERSIONSTAMP_OFFSET_BYTES + 1],
                    0, bytes("x"));
            return null;
        }));
        assertEquals(StoreLimitException.Limit.KEY_SIZE, key.limit());
        assertEquals(KvTransaction.MAX_KEY_BYTES + 1, key.size());
        StoreLimitException value = assertThrows(StoreLimitException.class, () -> runner.run(tx -> {
            tx.setVersionstampedValue(key("v"),
                    new byte[KvTransaction.MAX_VALUE_BYTES - KvTransaction.VERSIONSTAMP_OFFSET_BYTES + 1], 0);
            return null;
        }));
        assertEquals(StoreLimitException.Limit.VALUE_SIZE, value.limit());
        assertEquals(KvTransaction.MAX_VALUE_BYTES + 1, value.size());
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** Runs {@code work} on {@code threads} threads at once and rethrows the first failure. */
    protected static void runConcurrently(int threads, ThrowingIntConsumer work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int n = i;
                futures.add(pool.submit(() -> {
                    work.accept(n);
                    return null;
                }));
            }
            Set<Throwable> failures = new HashSet<>();
            for (Future<?> future : futures) {
                try {
                    future.get(120, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    failures.add(e.getCause());
                }
            }
            if (!failures.isEmpty()) {
                Throwable first = failures.iterator().next();
                if (first instanceof Exception exception) {
                    throw exception;
                }
                throw (Error) first;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    protected interface ThrowingIntConsumer {
        void accept(int value) throws Exception;
    }
}
