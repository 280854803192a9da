package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.Database;
import com.apple.foundationdb.Transaction;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.StoreClosedException;
import io.jobfoundry.kv.TransactionBody;
import java.time.Duration;

/**
 * The FoundationDB gateway: one FDB transaction per {@link #runOnce}, under the store's key
 * prefix. It never calls FDB's {@code onError}: {@link io.jobfoundry.kv.TransactionRunner} retries
 * with a fresh transaction, so FDB's retry limit and backoff options play no part here. Where FDB
 * would back off longer, because the cluster is overloaded or throttles this client,
 * {@link FdbErrors} reports the failure as THROTTLED and the runner backs off longer itself.
 */
final class FdbStore implements KvStore {

    private final Database db;
    private final KeyPrefix keys;
    private final String description;
    private final FdbErrors errors;
    private volatile boolean closed;

    FdbStore(Database db, FdbOptions options) {
        this.db = db;
        this.keys = new KeyPrefix(options.keyPrefix());
        this.description = options.describe();
        this.errors = new FdbErrors(description, FdbErrors.NATIVE);
    }

    @Override
    public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        WriteSizes writes = new WriteSizes(description, keys.length());
        long deadline = System.nanoTime() + timeout.toNanos();
        Transaction tr = begin(timeout, writes);
        try {
            FdbTransaction tx = new FdbTransaction(tr, keys, errors, writes);
            T result = body.apply(tx);
            if (System.nanoTime() - deadline >= 0) {
                // FDB would fail the commit with transaction_timed_out, which must count as
                // commit-unknown (a commit already sent cannot be called back): a body that ran out
                // of time is sure not to have committed only if it never asks to.
                throw new RetryableStoreException(RetryableStoreException.Reason.TIMEOUT, description, null);
            }
            tx.commit();
            return result;
        } finally {
            // Abandons the attempt if it did not commit: FDB then fails its watches and versionstamp.
            tr.close();
        }
    }

    private Transaction begin(Duration timeout, WriteSizes writes) {
        if (closed) {
            throw closed();
        }
        Transaction tr;
        try {
            tr = db.createTransaction();
        } catch (RuntimeException e) {
            // A handle closed meanwhile throws IllegalStateException, no FDBException: still "closed".
            throw closed ? closed() : errors.map(e, writes);
        }
        try {
            // FDB reads 0 as "no timeout", so a sub-millisecond timeout becomes 1 ms.
            tr.options().setTimeout(Math.max(1, timeout.toMillis()));
            return tr;
        } catch (RuntimeException e) {
            tr.close();
            throw errors.map(e, writes);
        }
    }

    @Override
    public String describe() {
        return description;
    }

    /**
     * Closes this store's database handle; the process's FDB network stays up for other stores. Calls
     * after it are refused as temporary ({@link StoreClosedException}, a {@code 503}), as the embedded
     * store's are: the service is shutting down, not broken.
     */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            db.close();
        }
    }

    private StoreClosedException closed() {
        return new StoreClosedException("the FoundationDB store is closed", description);
    }

    @Override
    public String toString() {
        return "FdbStore[" + description + "]";
    }
}
