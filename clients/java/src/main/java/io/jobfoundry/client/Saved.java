package io.jobfoundry.client;

/**
 * The answer to a {@code PUT} or to one item of a batch create.
 *
 * @param created {@code true} if the job was new ({@code 201}), {@code false} if it existed ({@code 200})
 * @param job the job as it is now
 */
public record Saved(boolean created, Job job) {
}
