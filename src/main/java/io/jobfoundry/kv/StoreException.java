package io.jobfoundry.kv;

import io.jobfoundry.JobfoundryException;

/**
 * A failure of the store, wrapped at the gateway so that nothing above {@code kv} sees SQLite's or
 * FoundationDB's own exception types. Not retryable unless it is a {@link RetryableStoreException}.
 */
public class StoreException extends JobfoundryException {

    private final String store;

    public StoreException(String message, String store, Throwable cause) {
        super(message, cause);
        this.store = store;
    }

    /** Which store failed, as {@link KvStore#describe()} names it. */
    public String store() {
        return store;
    }

    /** Whether another attempt of the same transaction may succeed (the runner's question). */
    public boolean isRetryable() {
        return false;
    }

    /**
     * Whether the store may serve the same request later: it was busy, out of time or closing, not
     * broken. Such a failure is a {@code 503} with {@code Retry-After}; any other is a store that
     * cannot serve until the service restarts, or a bug, and is a {@code 500}.
     */
    public boolean isTemporary() {
        return false;
    }

    /**
     * Whether the store failed for want of room (the embedded store's disk, or its size limit): a
     * repeat cannot help until room is made, which an operator must be told.
     */
    public boolean isOutOfRoom() {
        return false;
    }
}
