package io.jobfoundry.client;

/** A job's state (couch_jobs'): waiting, held by a processor, or done. */
public enum JobState {
    /** Waiting to run: scheduled later, due now, or a failed attempt waiting for its retry. */
    PENDING("pending"),
    /** Held by a processor under a lease. */
    RUNNING("running"),
    /** Done; see {@link Job#result()}. */
    FINISHED("finished");

    private final String wireName;

    JobState(String wireName) {
        this.wireName = wireName;
    }

    /** @return the name on the wire, e.g. {@code pending} */
    public String wireName() {
        return wireName;
    }

    static JobState of(String wire) {
        for (JobState state : values()) {
            if (state.wireName.equals(wire)) {
                return state;
            }
        }
        throw new JobfoundryException("unknown job state '" + wire + "'");
    }
}
