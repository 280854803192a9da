package io.jobfoundry.jobs.model;

/** How a finished job ended. */
public enum JobResult {
    SUCCEEDED, FAILED, CANCELLED;

    /** Computed once: every job on the wire names its state, result and priority. */
    private final String wireName = name().toLowerCase(java.util.Locale.ROOT);

    public String wireName() {
        return wireName;
    }
}
