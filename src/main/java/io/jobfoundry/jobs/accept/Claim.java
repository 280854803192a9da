package io.jobfoundry.jobs.accept;

/** One processor's share of a batched accept: up to {@code max} jobs, leased to {@code worker}. */
public record Claim(String worker, int max) {
}
