package io.jobfoundry.jobs.model;

/** A processor's call with a lease that is no longer the job's current lease. */
public final class HaltException extends JobException {

    private final HaltReason reason;
    private final JobState state;

    public HaltException(String type, String id, HaltReason reason) {
        this(type, id, reason, null);
    }

    /** @param state the job's state when the call came, so that a client is told what the job is doing; null if unknown or gone */
    public HaltException(String type, String id, HaltReason reason, JobState state) {
        super("the lease is no longer valid: stop working on the job", type, id);
        this.reason = reason;
        this.state = state;
    }

    /** The job's state when the call came; null if there is no job or it was not looked at. */
    public JobState state() {
        return state;
    }

    public HaltReason reason() {
        return reason;
    }
}
