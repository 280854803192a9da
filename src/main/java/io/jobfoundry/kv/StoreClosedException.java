package io.jobfoundry.kv;

/**
 * The store was closed, or is closing, under this work: the process is shutting down. Nothing is
 * wrong with the store, and the request may be made again (on another replica, or once this one
 * is back), so it is answered as an unavailable store, not as a failure.
 */
public class StoreClosedException extends StoreException {

    public StoreClosedException(String message, String store) {
        super(message, store, null);
    }

    @Override
    public boolean isTemporary() {
        return true;
    }
}
