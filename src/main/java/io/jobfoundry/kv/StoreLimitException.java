package io.jobfoundry.kv;

/** A key, value or transaction over FoundationDB's limits; retrying the same work cannot help. */
public class StoreLimitException extends StoreException {

    /** Which limit was exceeded. */
    public enum Limit { KEY_SIZE, VALUE_SIZE, TRANSACTION_SIZE }

    private final Limit limit;
    private final long size;

    public StoreLimitException(Limit limit, long size, String store) {
        super("store limit exceeded: " + limit + " (" + size + " bytes)", store, null);
        this.limit = limit;
        this.size = size;
    }

    public Limit limit() {
        return limit;
    }

    public long size() {
        return size;
    }

    /** Whether the transaction as a whole outgrew the store, rather than one key or value. */
    public boolean wholeTransaction() {
        return limit == Limit.TRANSACTION_SIZE;
    }
}
