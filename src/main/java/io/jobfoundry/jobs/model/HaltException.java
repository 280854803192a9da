package io.jobfoundry.jobs.model;

/** A processor's call with a lease that is no longer the job's current lease. */
public final class HaltException extends JobException {

    private final HaltReason reason;

    public HaltException(String type, String id, HaltReason reason) {
        super("the lease is no longer valid: stop working on the job", type, id);
        this.reason = reason;
    }

    public HaltReason reason() {
        return reason;
    }
}
