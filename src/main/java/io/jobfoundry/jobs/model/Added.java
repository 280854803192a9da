package io.jobfoundry.jobs.model;

/** The outcome of an add: the job as it is now, and whether this call created it. */
public record Added(Job job, boolean created) {
}
