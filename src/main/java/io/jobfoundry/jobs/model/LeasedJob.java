package io.jobfoundry.jobs.model;

/** A job handed to a processor, with the lease every later call of that processor carries. */
public record LeasedJob(Job job, String lease) {
}
