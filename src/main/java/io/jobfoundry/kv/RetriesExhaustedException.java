package io.jobfoundry.kv;

/** The retry loop gave up; the cause is the last attempt's failure. */
public class RetriesExhaustedException extends StoreException {

    private final int attempts;

    public RetriesExhaustedException(int attempts, RetryableStoreException last) {
        super("transaction failed after " + attempts + " attempts", last.store(), last);
        this.attempts = attempts;
    }

    public int attempts() {
        return attempts;
    }

    /** Every attempt failed as one that may succeed later: the store was busy, full or out of reach. */
    @Override
    public boolean isTemporary() {
        return true;
    }

    /** The last attempt failed for want of room. */
    @Override
    public boolean isOutOfRoom() {
        return getCause() instanceof RetryableStoreException last && last.isOutOfRoom();
    }
}
