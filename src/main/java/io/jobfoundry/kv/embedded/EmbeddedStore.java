package io.jobfoundry.kv.embedded;

import io.jobfoundry.DaemonThreads;
import io.jobfoundry.Futures;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.StoreClosedException;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionBody;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;
import org.jboss.logging.Logger;
import org.sqlite.SQLiteConfig;

/**
 * The default store: durable, one process, nothing to install. The ordered key space lives in one
 * SQLite table (WAL mode); transactions run serialized on one committer thread and are committed
 * in groups ({@link GroupCommitter}) and synced to disk while the next group runs
 * ({@link Acknowledger}); versionstamps come from a commit counter persisted in the
 * same SQLite transaction as the data it stamps; watches fire in-process after commit.
 */
public final class EmbeddedStore implements KvStore {

    private static final Logger LOG = Logger.getLogger(EmbeddedStore.class);

    /** How long a caller waits past its own timeout for a batch that is already being written. */
    private static final long COMMIT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** How often the timer looks for asynchronous commits past their deadline. */
    private static final long EXPIRY_SWEEP_MILLIS = 100;
    /** Refused: a retry of the body would start the other transaction again. */
    private static final String NESTED_BODY = "a transaction body cannot run another transaction";

    /** The name of the thread that runs every transaction: what a profile of the store looks for. */
    public static final String COMMITTER_THREAD = "jobfoundry-embedded-committer";

    private static final int PAGE_SIZE = 4096;
    private static final int CACHE_KIB = 64 * 1024;

    private final Path path;
    private final String name;
    private final StoreFileLock lock;
    private final SqliteKeySpace keys;
    private final GroupCommitter committer;
    private final Thread committerThread;
    private final ExecutorService notifier;
    /** Expires asynchronous commits that the committer does not answer in time. */
    private final ScheduledExecutorService timer;
    /**
     * Asynchronous commits not answered yet. A sweep every {@value #EXPIRY_SWEEP_MILLIS} ms fails
     * those past their deadline; a timer task per commit cost a heap insertion under the
     * executor's lock on every commit, and kept each cancelled task queued until it fell due.
     */
    private final Set<Unanswered<?>> unanswered = ConcurrentHashMap.newKeySet();
    private final WatchRegistry watches;
    private final LogSync log;
    private volatile boolean closed;

    private EmbeddedStore(Path path, StoreFileLock lock, SqliteKeySpace keys, StoreFiles files, LongConsumer batchSizes,
            int maxBatch, LogSync log) throws SQLException {
        this.path = path;
        this.name = "embedded:" + path;
        this.lock = lock;
        this.keys = keys;
        this.notifier = Executors.newSingleThreadExecutor(DaemonThreads.named("jobfoundry-embedded-watches"));
        this.watches = new WatchRegistry(notifier);
        this.timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("jobfoundry-embedded-timer"));
        timer.scheduleWithFixedDelay(this::expireOverdue, EXPIRY_SWEEP_MILLIS, EXPIRY_SWEEP_MILLIS,
                TimeUnit.MILLISECONDS);
        this.log = log;
        this.committer = new GroupCommitter(keys, files, name, maxBatch, watches, batchSizes, log);
        this.committerThread = new Thread(committer, COMMITTER_THREAD);
        this.committerThread.setDaemon(true);
        this.committerThread.start();
    }

    public static EmbeddedStore open(EmbeddedOptions options) {
        return open(options, size -> { });
    }

    /**
     * Opens (creating if needed) the store at {@code options.path()}.
     *
     * @param batchSizes told the number of transactions of every committed batch, for metrics
     */
    public static EmbeddedStore open(EmbeddedOptions options, LongConsumer batchSizes) {
        Path path = options.path().toAbsolutePath().normalize();
        return open(options, batchSizes,
                options.durability() == Durability.FSYNC ? LogSync.walOf(path) : LogSync.NONE, StoreFiles.CHECK_EVERY);
    }

    /**
     * {@link #open(EmbeddedOptions, LongConsumer)} with the log's sync given, and how often the
     * committer looks for its files ({@link StoreFiles}), for tests.
     */
    static EmbeddedStore open(EmbeddedOptions options, LongConsumer batchSizes, LogSync log, Duration checkFilesEvery) {
        Objects.requireNonNull(batchSizes, "batchSizes");
        Path path = options.path().toAbsolutePath().normalize();
        try {
            Files.createDirectories(path.getParent());
        } catch (IOException e) {
            throw new StoreException("cannot create the folder of the embedded store " + path, path.toString(), e);
        }
        StoreFileLock lock = StoreFileLock.acquire(path);
        SqliteKeySpace keys = null;
        try {
            // Said either way: a wrong path or an empty volume mounted in the store's place starts an
            // empty queue, which only this line tells from the store it should have been.
            long size = sizeOf(path);
            if (size >= 0) {
                LOG.infof("opening the embedded store %s (%d KiB)", path, (size + 1023) / 1024);
            } else {
                LOG.infof("creating a new, empty embedded store at %s: no store was there", path);
            }
            long unfolded = Math.max(0, sizeOf(path.resolveSibling(path.getFileName() + "-wal")));
            if (unfolded > 0) {
                LOG.warnf("the embedded store %s was not closed by the process before this one (it was killed or"
                        + " crashed, or its close failed): recovering what its log holds (%d KiB); jobs that were"
                        + " running come back after their activity timeout unless their workers go on",
                        path, (unfolded + 1023) / 1024);
            }
            keys = new SqliteKeySpace(connect(path, options));
            return new EmbeddedStore(path, lock, keys, StoreFiles.of(path, checkFilesEvery), batchSizes,
                    options.maxBatch(), log);
        } catch (SQLException e) {
            closeQuietly(keys);
            lock.close();
            throw new StoreException("cannot open the embedded store " + path + ": " + e.getMessage(),
                    path.toString(), e);
        } catch (RuntimeException e) {
            closeQuietly(keys);
            lock.close();
            throw e;
        }
    }

    /**
     * The size of the file at {@code path}, or -1 if there is none. Of the log, what the last
     * process left behind: a clean close folds the log into the file and removes it
     * ({@link SqliteKeySpace#close}), so one still there means the process before this one was
     * killed or crashed. The lock is held, so no live process is writing either.
     */
    static long sizeOf(Path path) {
        try {
            return Files.exists(path) ? Files.size(path) : -1;
        } catch (IOException e) {
            return 0; // only for a log line: SQLite reports a file it cannot read itself
        }
    }

    private static Connection connect(Path path, EmbeddedOptions options) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // Commits are written, not synced; with durability fsync the Acknowledger syncs the log
        // before it answers. NORMAL still syncs the log before each checkpoint and the database
        // after it, so a checkpoint never copies back, or lets the log restart over, anything
        // that is not already on disk.
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        // One connection owns the file: no shared-memory index, and other SQLite clients stay out.
        config.setLockingMode(SQLiteConfig.LockingMode.EXCLUSIVE);
        config.setBusyTimeout(0);
        // sqlite-jdbc would otherwise run "SELECT last_insert_rowid()" after every write: a third
        // of the committer's time went to preparing that statement.
        config.setGetGeneratedKeys(false);
        // The hot pages (indexes, counters, recent jobs) stay in memory instead of being re-read.
        config.setCacheSize(-CACHE_KIB);
        // Each transaction of a batch runs under a savepoint, whose undo pages SQLite keeps in a
        // sub-journal. Unless temp_store is MEMORY, a transaction that changes more than 64 KiB of
        // existing pages spills it to a temporary file, which the exclusive connection then keeps:
        // from then on every page a transaction first touched cost the committer a pwrite. In
        // memory it holds what one transaction changes, which the transaction limits bound (a
        // clear excepted: see KvTransaction.clearRange).
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        if (options.maxBytes() > 0) {
            config.setMaxPageCount((int) Math.min(Integer.MAX_VALUE, Math.max(1, options.maxBytes() / PAGE_SIZE)));
        }
        config.setPageSize(PAGE_SIZE);
        return config.createConnection("jdbc:sqlite:" + path);
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
        return runOnce(body, timeout, Sync.ON_COMMIT);
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
        if (committer.answersOnThisThread()) {
            // It would wait for an answer that only this thread can give.
            throw new IllegalStateException(committer.inBodyOnThisThread()
                    ? NESTED_BODY : "a commit's callback cannot wait for another transaction");
        }
        CommitRequest<T> request = submit(body, timeout, sync);
        try {
            return request.outcome.get(timeout.toNanos() + COMMIT_GRACE_NANOS, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (TimeoutException e) {
            throw gaveUp(request, RetryableStoreException.Reason.TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw gaveUp(request, RetryableStoreException.Reason.TIMEOUT);
        }
    }

    /**
     * The store's own threads complete the future, so no thread waits for the commit; callbacks run
     * on the committer or the acknowledger and must be short (and must not block on another
     * transaction). A commit that has not answered {@code timeout} plus a
     * grace later fails as {@link #runOnce} would.
     */
    @Override
    public <T> CompletableFuture<T> runOnceAsync(TransactionBody<T> body, Duration timeout, Sync sync) {
        CommitRequest<T> request;
        try {
            request = submit(body, timeout, sync);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        Unanswered<T> waiting = new Unanswered<>(request, System.nanoTime() + timeout.toNanos() + COMMIT_GRACE_NANOS);
        unanswered.add(waiting);
        Futures.whenDone(request.outcome, (value, failure) -> {
            unanswered.remove(waiting);
            if (failure == null) {
                waiting.result.complete(value);
            } else {
                waiting.result.completeExceptionally(failure);
            }
        });
        return waiting.result;
    }

    /** An asynchronous commit and the caller's future, which fails as {@link #runOnce} would once overdue. */
    private static final class Unanswered<T> {
        final CommitRequest<T> request;
        final long expiresNanos;
        final CompletableFuture<T> result = new CompletableFuture<>();

        Unanswered(CommitRequest<T> request, long expiresNanos) {
            this.request = request;
            this.expiresNanos = expiresNanos;
        }
    }

    private void expireOverdue() {
        long now = System.nanoTime();
        for (Unanswered<?> waiting : unanswered) {
            if (now - waiting.expiresNanos > 0 && unanswered.remove(waiting) && !waiting.request.outcome.isDone()) {
                waiting.result.completeExceptionally(gaveUp(waiting.request, RetryableStoreException.Reason.TIMEOUT));
            }
        }
    }

    private <T> CommitRequest<T> submit(TransactionBody<T> body, Duration timeout, Sync sync) {
        if (committer.inBodyOnThisThread()) {
            throw new IllegalStateException(NESTED_BODY);
        }
        if (closed) {
            throw new StoreClosedException("the embedded store is closed", name);
        }
        CommitRequest<T> request =
                new CommitRequest<>(body, System.nanoTime() + timeout.toNanos(), sync == Sync.DEFERRABLE);
        committer.submit(request);
        return request;
    }

    /** A request the committer never took did not happen; one it took may have committed. */
    private RetryableStoreException gaveUp(CommitRequest<?> request, RetryableStoreException.Reason reason) {
        return new RetryableStoreException(
                request.abandon() ? reason : RetryableStoreException.Reason.COMMIT_UNKNOWN, name, null);
    }

    private static RuntimeException rethrow(Throwable cause) {
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IllegalStateException("transaction body failed", cause);
    }

    /**
     * After a failed sync of the log, or a file lost to the connection (moved or deleted under it,
     * looked for here too: {@link StoreFiles}): only a restart recovers from what the disk holds.
     */
    @Override
    public Optional<String> failedForGood() {
        if (!closed) {
            // A clean close folds the log in and removes it: gone then is as it should be.
            committer.checkFiles();
        }
        StoreException why = committer.whyBroken();
        return why == null ? Optional.empty() : Optional.of(why.getMessage());
    }

    @Override
    public String describe() {
        return name;
    }

    public Path path() {
        return path;
    }

    /** Syncs of the log to disk (durability {@code fsync}) since open; one sync may cover several batches. */
    public long logSyncs() {
        return committer.syncs();
    }

    /** Transactions waiting for the committer: the depth of the commit queue. */
    public int queued() {
        return committer.queued();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        committer.close();
        try {
            committerThread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watches.failAll(new StoreClosedException("the embedded store is closed", name));
        log.close();
        notifier.shutdown();
        timer.shutdown();
        if (committer.broken()) {
            // SQLite checkpoints when its connection closes, copying into the database what its
            // cache holds, which a failed sync may not have put on disk (and a file lost to the
            // connection cannot take). The file stays this process's until it exits, as after a
            // crash; the next open recovers from the log.
            return;
        }
        closeQuietly(keys);
        lock.close();
    }

    private static void closeQuietly(SqliteKeySpace keys) {
        if (keys != null) {
            try {
                keys.close();
            } catch (SQLException ignored) {
                // Committed data is safe in the WAL; closing only tidies up.
            }
        }
    }
}
