package io.jobfoundry.jobs.model;

/** What a bulk action (or one of its steps) did: jobs that matched its filter, and those its action changed. */
public record BulkResult(long matched, long changed) {

    public static final BulkResult NONE = new BulkResult(0, 0);

    public BulkResult plus(BulkResult other) {
        return new BulkResult(matched + other.matched, changed + other.changed);
    }
}
