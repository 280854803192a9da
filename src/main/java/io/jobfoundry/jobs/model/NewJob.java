package io.jobfoundry.jobs.model;

/**
 * One job of a batch create: a {@code PUT} of job {@code id}, or with {@code id} null a create
 * with a generated id.
 */
public record NewJob(String type, String id, JobChanges changes) {
}
