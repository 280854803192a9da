package io.jobfoundry.client;

/**
 * A job handed to this processor by an accept, with the lease every processor call on it must carry.
 *
 * @param job the job as accepted
 * @param lease the lease
 */
public record LeasedJob(Job job, String lease) {

    /** @return the job's type */
    public String type() {
        return job.type();
    }

    /** @return the job's id */
    public String id() {
        return job.id();
    }
}
