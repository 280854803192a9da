package io.jobfoundry.jobs.model;

/**
 * What a processor's call in a batch came to: the job as it is now, or the halt that tells the
 * processor to stop (then {@code job} is null). Items of a batch are independent: one halted
 * does not stop the others.
 */
public record ItemResult(Job job, HaltReason halt) {
}
