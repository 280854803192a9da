package io.jobfoundry.jobs.model;

import io.jobfoundry.JobfoundryException;

/** An expected outcome of a job operation that the caller must handle; never a defect. */
public abstract class JobException extends JobfoundryException {

    private final String type;
    private final String id;

    protected JobException(String message, String type, String id) {
        super(message, false);
        this.type = type;
        this.id = id;
    }

    public String type() {
        return type;
    }

    /** The job's id, or {@code null} when the failure concerns no single job. */
    public String id() {
        return id;
    }
}
