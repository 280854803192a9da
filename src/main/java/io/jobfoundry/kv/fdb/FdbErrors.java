package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.FDBException;
import io.jobfoundry.Futures;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.RetryableStoreException.Reason;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.StoreLimitException;
import io.jobfoundry.kv.StoreLimitException.Limit;

/**
 * The one place FoundationDB's failures become Jobfoundry's {@link StoreException}s, so that nothing
 * above the gateway sees {@link FDBException} and every FDB call is judged by the same table.
 *
 * <p>The codes the retry loop must tell apart are named here (from FDB's
 * {@code error_definitions.h}). Every other code is classified by FoundationDB itself, through
 * {@code fdb_error_predicate}; that predicate lives in libfdb_c, so it is passed in, and tests that
 * run without the native client can supply their own.
 */
final class FdbErrors {

    static final int TRANSACTION_TOO_OLD = 1007;
    static final int NOT_COMMITTED = 1020;
    static final int COMMIT_UNKNOWN_RESULT = 1021;
    static final int TRANSACTION_TIMED_OUT = 1031;
    static final int ACCESSED_UNREADABLE = 1036;
    static final int PROCESS_BEHIND = 1037;
    static final int COMMIT_PROXY_MEMORY_LIMIT_EXCEEDED = 1042;
    static final int BATCH_TRANSACTION_THROTTLED = 1051;
    static final int GRV_PROXY_MEMORY_LIMIT_EXCEEDED = 1078;
    static final int TAG_THROTTLED = 1213;
    static final int PROXY_TAG_THROTTLED = 1223;
    static final int TRANSACTION_THROTTLED_HOT_SHARD = 1235;
    static final int TRANSACTION_TOO_LARGE = 2101;
    static final int KEY_TOO_LARGE = 2102;
    static final int VALUE_TOO_LARGE = 2103;
    static final int API_VERSION_NOT_SUPPORTED = 2203;

    /** FoundationDB's own classification of an error code. */
    interface Predicates {

        /** Whether a new attempt may succeed (FDB's {@code onError} would retry). */
        boolean isRetryable(FDBException e);

        /** Whether the failed commit may nevertheless have been applied. */
        boolean isMaybeCommitted(FDBException e);
    }

    /** libfdb_c's predicates: usable once the API version is selected, as it is for an open store. */
    static final Predicates NATIVE = new Predicates() {
        @Override
        public boolean isRetryable(FDBException e) {
            return e.isRetryable();
        }

        @Override
        public boolean isMaybeCommitted(FDBException e) {
            return e.isMaybeCommitted();
        }
    };

    private final String store;
    private final Predicates predicates;

    FdbErrors(String store, Predicates predicates) {
        this.store = store;
        this.predicates = predicates;
    }

    /**
     * The exception to throw for a failed FoundationDB call. {@code writes} sizes a limit FDB reports
     * at commit. An {@link Error} (out of memory, a broken native library) is rethrown as it is:
     * it is no store outcome and no retry may hide it.
     */
    StoreException map(Throwable failure, WriteSizes writes) {
        Throwable cause = Futures.cause(failure);
        if (cause instanceof Error error) {
            throw error;
        }
        if (cause instanceof StoreException mapped) {
            return mapped;
        }
        if (cause instanceof FDBException fdb) {
            return map(fdb, writes);
        }
        return new StoreException("FoundationDB client call failed", store, cause);
    }

    /**
     * As {@link #map}, for a failed commit. The timeout cancels the transaction on the client, but a
     * commit already sent to the cluster cannot be called back, so a commit that timed out may have
     * taken effect: the retry loop must treat it as unknown, not as not-committed.
     */
    StoreException mapCommit(Throwable failure, WriteSizes writes) {
        StoreException mapped = map(failure, writes);
        if (mapped.getCause() instanceof FDBException fdb && fdb.getCode() == TRANSACTION_TIMED_OUT) {
            return retryable(Reason.COMMIT_UNKNOWN, fdb);
        }
        return mapped;
    }

    private StoreException map(FDBException e, WriteSizes writes) {
        return switch (e.getCode()) {
            case NOT_COMMITTED -> retryable(Reason.CONFLICT, e);
            case TRANSACTION_TOO_OLD, TRANSACTION_TIMED_OUT -> retryable(Reason.TIMEOUT, e);
            case COMMIT_UNKNOWN_RESULT -> retryable(Reason.COMMIT_UNKNOWN, e);
            // The errors FDB's onError counts as throttled, resource-constrained or process-behind
            // (NativeAPI's transactionsThrottled, ...ResourceConstrained, ...ProcessBehind), and the
            // hot-shard throttling of FDB's newer error table: the cluster is overloaded for a while,
            // not for one conflict. None was committed: FDB refuses them before applying anything.
            case PROCESS_BEHIND, COMMIT_PROXY_MEMORY_LIMIT_EXCEEDED, BATCH_TRANSACTION_THROTTLED,
                    GRV_PROXY_MEMORY_LIMIT_EXCEEDED, TAG_THROTTLED, PROXY_TAG_THROTTLED,
                    TRANSACTION_THROTTLED_HOT_SHARD -> retryable(Reason.THROTTLED, e);
            // The embedded store refuses the same reads with the same words.
            case ACCESSED_UNREADABLE -> new StoreException(KvTransaction.UNREADABLE_VERSIONSTAMP, store, e);
            case TRANSACTION_TOO_LARGE -> limit(Limit.TRANSACTION_SIZE, writes.total(), e);
            case KEY_TOO_LARGE -> limit(Limit.KEY_SIZE, writes.largestKey(), e);
            case VALUE_TOO_LARGE -> limit(Limit.VALUE_SIZE, writes.largestValue(), e);
            default -> classifiedByFdb(e);
        };
    }

    private StoreException classifiedByFdb(FDBException e) {
        if (predicates.isRetryable(e)) {
            // cluster_version_changed, for one, is retryable but may have committed: say so.
            return retryable(predicates.isMaybeCommitted(e) ? Reason.COMMIT_UNKNOWN : Reason.TRANSIENT, e);
        }
        return new StoreException("FoundationDB operation failed with error " + e.getCode(), store, e);
    }

    private RetryableStoreException retryable(Reason reason, FDBException e) {
        return new RetryableStoreException(reason, store, e);
    }

    private StoreLimitException limit(Limit limit, long size, FDBException e) {
        StoreLimitException exception = new StoreLimitException(limit, size, store);
        // StoreLimitException takes no cause; keep FDB's report for the logs anyway.
        exception.addSuppressed(e);
        return exception;
    }
}
