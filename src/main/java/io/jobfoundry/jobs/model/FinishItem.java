package io.jobfoundry.jobs.model;

/** One finish of a batch: as the single finish call takes it. */
public record FinishItem(String type, String id, String lease, boolean succeeded, Change<String> data,
        String error) {
}
