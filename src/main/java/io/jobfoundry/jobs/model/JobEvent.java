package io.jobfoundry.jobs.model;

/** What a subscription to one job delivers: its state after a change, or its removal. */
public record JobEvent(Job job, boolean removed) {

    public static JobEvent state(Job job) {
        return new JobEvent(job, false);
    }

    public static JobEvent removal() {
        return new JobEvent(null, true);
    }
}
