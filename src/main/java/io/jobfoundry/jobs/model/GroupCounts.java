package io.jobfoundry.jobs.model;

/** A fairness group of a type and its jobs: {@code pending} (due or not), {@code due} of those, and {@code running}. */
public record GroupCounts(String group, long pending, long due, long running) {
}
