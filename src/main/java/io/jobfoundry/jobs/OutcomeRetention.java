package io.jobfoundry.jobs;

/** Forgets accept and removal outcomes once no retry of theirs can still be running. */
public final class OutcomeRetention {

    private final JobEngine engine;

    public OutcomeRetention(JobEngine engine) {
        this.engine = engine;
    }

    public void runOnce() {
        long before = Times.micros(engine.clock().instant().minus(JobEngine.OUTCOME_RETENTION));
        engine.runner().run(tx -> {
            tx.clearRange(JobKeys.outcomesBegin(), JobKeys.outcomesBefore(before));
            return null;
        });
    }
}
