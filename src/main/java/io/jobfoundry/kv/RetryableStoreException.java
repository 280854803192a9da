package io.jobfoundry.kv;

/** A failed attempt that may succeed when the whole transaction is run again. */
public class RetryableStoreException extends StoreException {

    /** Why the attempt failed; {@link #COMMIT_UNKNOWN} means it may also have taken effect. */
    public enum Reason {
        /** Another transaction changed what this one read (FDB 1020 not_committed). */
        CONFLICT,
        /** The attempt ran out of time (FDB 1031 transaction_timed_out, 1007 transaction_too_old). */
        TIMEOUT,
        /** The commit may or may not have been applied (FDB 1021 commit_unknown_result). */
        COMMIT_UNKNOWN,
        /** A passing failure of the store (busy, a batch that could not be written, FDB's own). */
        TRANSIENT,
        /**
         * The store is overloaded or throttles this client (FDB: a storage server behind, a proxy
         * out of memory, tag, batch or hot-shard throttling), and did not commit: the next attempt
         * waits longer ({@link RetryPolicy#throttledBackoff}).
         */
        THROTTLED,
        /**
         * The store is out of room (the embedded store: its disk, or {@code jobfoundry.embedded.max-size}),
         * and this transaction was the cause: no other one's writes came before it in its batch
         * (the others learn {@link #TRANSIENT}). A run gives up after {@value Backoff#FULL_ATTEMPTS}
         * such attempts: retrying cannot make room.
         */
        FULL
    }

    private final Reason reason;

    public RetryableStoreException(Reason reason, String store, Throwable cause) {
        super("transaction attempt failed, may be retried: " + reason, store, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    @Override
    public boolean isOutOfRoom() {
        return reason == Reason.FULL;
    }

    @Override
    public boolean isRetryable() {
        return true;
    }

    @Override
    public boolean isTemporary() {
        return true;
    }
}
