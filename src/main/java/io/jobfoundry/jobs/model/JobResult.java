package io.jobfoundry.jobs.model;

/** How a finished job ended. */
public enum JobResult {
    SUCCEEDED, FAILED, CANCELLED;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
