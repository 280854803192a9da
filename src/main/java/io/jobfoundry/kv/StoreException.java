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

    public boolean isRetryable() {
        return false;
    }
}
