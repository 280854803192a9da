package io.jobfoundry.jobs.model;

/**
 * A batch whose jobs' data together would not fit one store transaction (FoundationDB takes at
 * most 10 MB written per transaction, keys and bookkeeping included).
 */
public final class BatchTooLargeException extends JobException {

    private final long size;
    private final long limit;

    public BatchTooLargeException(long size, long limit) {
        super("batch too large for one transaction", null, null);
        this.size = size;
        this.limit = limit;
    }

    public long size() {
        return size;
    }

    public long limit() {
        return limit;
    }
}
