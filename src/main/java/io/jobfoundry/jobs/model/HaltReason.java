package io.jobfoundry.jobs.model;

/** Why a processor's lease is no longer valid; the processor must stop (couch_jobs' halt). */
public enum HaltReason {
    /** The job was re-enqueued after an activity timeout, or accepted again. */
    LEASE_LOST("lease-lost"),
    /** The job was deleted. */
    REMOVED("removed"),
    /** The job was cancelled. */
    CANCELLED("cancelled");

    private final String wireName;

    HaltReason(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
