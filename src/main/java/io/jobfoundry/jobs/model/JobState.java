package io.jobfoundry.jobs.model;

/** couch_jobs' three states. */
public enum JobState {
    /** Waiting to run: scheduled for later, due, or a failed attempt waiting for its retry time. */
    PENDING,
    /** Held by a processor under a lease. */
    RUNNING,
    /** Done; {@link Job#result()} says how. */
    FINISHED;

    /** Computed once: every job on the wire names its state, result and priority. */
    private final String wireName = name().toLowerCase(java.util.Locale.ROOT);

    public String wireName() {
        return wireName;
    }
}
