package io.jobfoundry.jobs.model;

/** No job with this type and id. */
public final class JobNotFoundException extends JobException {

    public JobNotFoundException(String type, String id) {
        super("job not found", type, id);
    }
}
