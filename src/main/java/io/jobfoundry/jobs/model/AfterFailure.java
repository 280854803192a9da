package io.jobfoundry.jobs.model;

/**
 * What a job that waits for others does when one of them finishes {@code failed} or
 * {@code cancelled}, or is removed: finish {@code cancelled} itself (the default), or run anyway.
 */
public enum AfterFailure {
    CANCEL, RUN;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
