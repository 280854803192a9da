package io.jobfoundry.jobs.model;

/** A change the job's current state does not allow, such as replacing a running job's data. */
public final class JobConflictException extends JobException {

    private final JobState state;

    public JobConflictException(String message, String type, String id, JobState state) {
        super(message, type, id);
        this.state = state;
    }

    public JobState state() {
        return state;
    }
}
