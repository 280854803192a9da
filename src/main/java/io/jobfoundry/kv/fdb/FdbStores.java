package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.FDB;
import com.apple.foundationdb.Transaction;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Opens FoundationDB stores. Opening fails at once, with a message an operator can act on, when the
 * native client is missing, the cluster file is wrong, or the cluster does not answer: a service
 * that cannot reach its store should not start and hang on its first request instead.
 */
public final class FdbStores {

    /** How long the first read may take before the cluster counts as unreachable. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

    /**
     * The most watches a store's database handle may hold at once (FDB's {@code max_watches}; its
     * default is 10,000, its ceiling 1,000,000). Every waiter holds one: each event stream and
     * {@code waitFor}, each set of types with blocked accepts, the due timer. 10,000 open event
     * streams on one replica are plausible; past the limit FDB fails new watches with
     * too_many_watches, and the waiters fall back to looking again every few seconds
     * ({@code WatchBackoff}), so the limit bounds the client's memory, not correctness.
     */
    static final long MAX_WATCHES = 100_000;

    static final String NO_CLUSTER_FILE = "the FoundationDB cluster file does not exist";
    static final String CANNOT_OPEN = "FoundationDB could not open the database named by the cluster file";
    static final String UNREACHABLE = "the FoundationDB cluster did not answer a read within 5 s: check the cluster"
            + " file, that its coordinators are reachable and that the database is configured";
    static final String FIRST_READ_FAILED = "the FoundationDB cluster refused the first read";
    static final String WATCH_LIMIT_REFUSED = "the FoundationDB client refused the watch limit";

    private FdbStores() {
    }

    /**
     * Opens a store under {@code options.keyPrefix()}; the caller closes it. The first store opened in
     * a process starts FoundationDB's client (API {@value FdbClient#API_VERSION}).
     */
    public static KvStore open(FdbOptions options) {
        String store = options.describe();
        FDB fdb = FdbClient.get(store);
        options.clusterFile().ifPresent(file -> requireFile(file, store));
        Database db = openDatabase(fdb, options, store);
        try {
            limitWatches(db, store);
            probe(db, options.keyPrefix(), store);
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return new FdbStore(db, options);
    }

    /**
     * Stops the process's FoundationDB client once its stores are closed, when the process ends
     * (fdb-java's own shutdown hook is disabled: it would race the service's graceful shutdown).
     * No store can be opened in this JVM afterwards, so a JVM that starts the application again
     * (Quarkus dev mode's live reload, tests) must not call it. Does nothing if no store was opened.
     */
    public static void stopClient() {
        FdbClient.stop();
    }

    private static void requireFile(String clusterFile, String store) {
        if (!Files.isRegularFile(Path.of(clusterFile))) {
            throw new StoreException(NO_CLUSTER_FILE, store, null);
        }
    }

    private static Database openDatabase(FDB fdb, FdbOptions options, String store) {
        try {
            // null asks FDB for its default cluster file.
            return fdb.open(options.clusterFile().orElse(null));
        } catch (RuntimeException e) {
            throw new StoreException(CANNOT_OPEN, store, e);
        }
    }

    private static void limitWatches(Database db, String store) {
        try {
            db.options().setMaxWatches(MAX_WATCHES);
        } catch (RuntimeException e) {
            throw new StoreException(WATCH_LIMIT_REFUSED, store, e);
        }
    }

    /** FDB connects lazily; one bounded read proves the cluster file leads to a working cluster. */
    private static void probe(Database db, byte[] key, String store) {
        FdbErrors errors = new FdbErrors(store, FdbErrors.NATIVE);
        try (Transaction tr = db.createTransaction()) {
            tr.options().setTimeout(PROBE_TIMEOUT.toMillis());
            tr.get(key).join();
        } catch (RuntimeException e) {
            StoreException failure = errors.map(e, new WriteSizes(store));
            boolean timedOut = failure instanceof RetryableStoreException retryable
                    && retryable.reason() == RetryableStoreException.Reason.TIMEOUT;
            throw new StoreException(timedOut ? UNREACHABLE : FIRST_READ_FAILED, store, failure);
        }
    }
}
