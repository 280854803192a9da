package io.jobfoundry.jobs.context;

import java.time.Duration;

/**
 * What the engine reports as jobs move, each call after the move committed: the seam for metrics,
 * so the engine knows no metrics library. Calls come on the engine's callers' threads and must be
 * cheap. Type names are the only labels the engine hands out; job ids never.
 */
public interface JobObserver {

    /** Reports nothing. */
    JobObserver NONE = new JobObserver() {
    };

    /**
     * The store holds jobs of {@code type}, seen now (at start, and as new types come): its counts
     * start at zero here, before the first move. A counter that first appeared at its first
     * increment would make that increment its baseline, and a rate or an alert would never see it
     * (the jobs the activity monitor takes back after a crash and a restart, say).
     */
    default void known(String type) {
    }

    /** A job started running; {@code waited} is from its due time, or its creation if later, to its start. */
    default void accepted(String type, Duration waited) {
    }

    /** A processor finished a run; {@code ran} is from its start to now. */
    default void finished(String type, boolean succeeded, Duration ran) {
    }

    /**
     * {@code runs} runs of the type failed for good: their last attempt failed or went quiet. The
     * job finished failed, or, repeating, went on to its next run, where no count of finished jobs
     * sees it.
     */
    default void runsFailed(String type, int runs) {
    }

    /** The activity monitor took back {@code jobs} running jobs whose processor went quiet (retried, or ended). */
    default void requeued(String type, int jobs) {
    }

    /** Retention removed {@code jobs} finished jobs of the type whose time to be kept was up. */
    default void expired(String type, int jobs) {
    }

    /** An accept was answered with {@code jobs} jobs after {@code waited}. */
    default void acceptAnswered(Duration waited, int jobs) {
    }
}
