package io.jobfoundry.jobs.model;

/** A job's data over the configured limit. */
public final class DataTooLargeException extends JobException {

    private final int size;
    private final int limit;

    public DataTooLargeException(String type, String id, int size, int limit) {
        super("job data too large", type, id);
        this.size = size;
        this.limit = limit;
    }

    public int size() {
        return size;
    }

    public int limit() {
        return limit;
    }
}
