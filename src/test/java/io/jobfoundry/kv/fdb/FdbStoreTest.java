package io.jobfoundry.kv.fdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDB;
import com.apple.foundationdb.Range;
import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.KvStoreContract;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.TransactionBody;
import io.jobfoundry.kv.TupleWriter;
import io.jobfoundry.kv.VersionstampKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The KV contract against a real FoundationDB cluster, plus what only this gateway does: the key
 * prefix. Each test's store lives under a fresh random prefix, cleared afterwards, so runs can share
 * a cluster. Skipped, with the reason, where {@code FDB_CLUSTER_FILE} names no reachable cluster.
 */
@EnabledIfFdbReachable
class FdbStoreTest extends KvStoreContract {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final byte[] EVERYTHING_BEGIN = {};
    private static final byte[] EVERYTHING_END = {(byte) 0xFF, (byte) 0xFF};

    private final Map<KvStore, byte[]> prefixes = new IdentityHashMap<>();
    private final List<byte[]> rawKeys = new ArrayList<>();

    private static String clusterFile() {
        return System.getenv(FdbClusterCondition.CLUSTER_FILE_VARIABLE);
    }

    @Override
    protected KvStore openStore() {
        byte[] prefix = Tuple.from("jobfoundry-test", UUID.randomUUID()).pack();
        KvStore store = FdbStores.open(FdbOptions.ofClusterFile(clusterFile()).withKeyPrefix(prefix));
        prefixes.put(store, prefix);
        return store;
    }

    @Override
    protected void discardStore(KvStore store) {
        try {
            byte[] prefix = prefixes.remove(store);
            raw(db -> db.run(tr -> {
                tr.clear(Range.startsWith(prefix));
                return null;
            }));
        } finally {
            store.close();
        }
    }

    @AfterEach
    void clearRawKeys() {
        if (rawKeys.isEmpty()) {
            return;
        }
        raw(db -> db.run(tr -> {
            rawKeys.forEach(tr::clear);
            return null;
        }));
    }

    /** Direct access to the cluster, beside the gateway, to see where keys really are. */
    private static <T> T raw(Function<Database, T> work) {
        try (Database db = FDB.selectAPIVersion(FdbClient.API_VERSION).open(clusterFile())) {
            return work.apply(db);
        }
    }

    private static <T> T run(KvStore store, TransactionBody<T> body) {
        return store.runOnce(body, TIMEOUT);
    }

    @Test
    void keysAreStoredUnderThePrefix() throws Exception {
        KvStore store = openStore();
        try {
            byte[] prefix = prefixes.get(store);
            run(store, tx -> {
                tx.set(new byte[] {1}, new byte[] {42});
                return null;
            });
            raw(db -> db.run(tr -> {
                tr.set(ByteArrayUtil.join(prefix, new byte[] {2}), new byte[] {43});
                return null;
            }));

            byte[] stored = ByteArrayUtil.join(prefix, new byte[] {1});
            assertArrayEquals(new byte[] {42}, raw(db -> db.run(tr -> tr.get(stored).join())));
            assertArrayEquals(new byte[] {43}, run(store, tx -> tx.get(new byte[] {2})));
        } finally {
            discardStore(store);
        }
    }

    @Test
    void rangesNeverReachOutsideThePrefix() throws Exception {
        KvStore store = openStore();
        try {
            byte[] prefix = prefixes.get(store);
            byte[] justAfter = ByteArrayUtil.strinc(prefix);
            byte[] justBefore = Arrays.copyOf(prefix, prefix.length - 1);
            rawKeys.add(justAfter);
            rawKeys.add(justBefore);
            raw(db -> db.run(tr -> {
                tr.set(justAfter, new byte[] {1});
                tr.set(justBefore, new byte[] {1});
                return null;
            }));
            run(store, tx -> {
                tx.set(new byte[] {5}, new byte[] {5});
                return null;
            });

            List<KeyValue> seen = run(store, tx -> tx.getRange(EVERYTHING_BEGIN, EVERYTHING_END, 0));
            List<KeyValue> seenBackwards = run(store, tx -> tx.getRange(EVERYTHING_BEGIN, EVERYTHING_END, 0, true));
            run(store, tx -> {
                tx.clearRange(EVERYTHING_BEGIN, EVERYTHING_END);
                return null;
            });

            assertEquals(1, seen.size());
            assertArrayEquals(new byte[] {5}, seen.get(0).key());
            assertEquals(1, seenBackwards.size());
            assertArrayEquals(new byte[] {1}, raw(db -> db.run(tr -> tr.get(justAfter).join())));
            assertArrayEquals(new byte[] {1}, raw(db -> db.run(tr -> tr.get(justBefore).join())));
        } finally {
            discardStore(store);
        }
    }

    @Test
    void versionstampedKeysLandWhereTheTemplateSaysDespiteThePrefix() throws Exception {
        KvStore store = openStore();
        try {
            VersionstampKeys.Template template = TupleWriter.of("log").addIncompleteVersionstamp(7).add("entry").template();

            CompletableFuture<Versionstamp> stamp = run(store, tx -> {
                tx.setVersionstampedKey(template.key(), template.offset(), new byte[] {1});
                tx.setVersionstampedValue(new byte[] {9}, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3}, 0);
                return tx.versionstamp();
            });
            Versionstamp committed = stamp.get(10, TimeUnit.SECONDS);
            byte[] logBegin = Tuple.from("log").range().begin;
            byte[] logEnd = Tuple.from("log").range().end;
            List<KeyValue> log = run(store, tx -> tx.getRange(logBegin, logEnd, 0));
            byte[] value = run(store, tx -> tx.get(new byte[] {9}));

            assertEquals(1, log.size());
            Tuple key = Tuple.fromBytes(log.get(0).key());
            assertEquals(Versionstamp.complete(committed.getTransactionVersion(), 7), key.getVersionstamp(1));
            assertEquals("entry", key.getString(2));
            assertArrayEquals(committed.getTransactionVersion(), Arrays.copyOf(value, 10));
            assertEquals(3, value[10]);
        } finally {
            discardStore(store);
        }
    }

    @Test
    void aWatchFiresOnAnotherCommitAndAWatchOfAnAbandonedAttemptFails() throws Exception {
        KvStore store = openStore();
        try {
            byte[] key = {3};
            CompletableFuture<Void> watch = run(store, tx -> tx.watch(key));
            run(store, tx -> {
                tx.set(key, new byte[] {1});
                return null;
            });
            assertNull(watch.get(10, TimeUnit.SECONDS));

            CompletableFuture<?>[] abandoned = new CompletableFuture<?>[1];
            IllegalStateException bodyFailure = new IllegalStateException("the body gives up");
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> run(store, tx -> {
                abandoned[0] = tx.watch(key);
                throw bodyFailure;
            }));
            ExecutionException failed = assertThrows(ExecutionException.class, () -> abandoned[0].get(10, TimeUnit.SECONDS));

            assertEquals(bodyFailure, thrown);
            assertInstanceOf(StoreException.class, failed.getCause());
        } finally {
            discardStore(store);
        }
    }

    @Test
    void aVersionstampOfAReadOnlyAttemptFailsAsAStoreException() throws Exception {
        KvStore store = openStore();
        try {
            CompletableFuture<Versionstamp> stamp = run(store, tx -> {
                tx.get(new byte[] {1});
                return tx.versionstamp();
            });

            CompletionException failed = assertThrows(CompletionException.class, stamp::join);
            assertInstanceOf(StoreException.class, failed.getCause());
        } finally {
            discardStore(store);
        }
    }
}
