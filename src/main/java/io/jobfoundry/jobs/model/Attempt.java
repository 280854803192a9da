package io.jobfoundry.jobs.model;

import java.time.Instant;

/**
 * One attempt of a job as its history keeps it (API.md's {@code history}): which attempt of its
 * run it was, when it started and ended, how it ended, the error it ended with (cut short, see
 * {@code records.History}) and the worker that ran it.
 */
public record Attempt(int attempt, Instant startedAt, Instant endedAt, Outcome outcome, String error,
        String worker) {

    /** How an attempt ended. */
    public enum Outcome {
        SUCCEEDED, FAILED,
        /** Its processor went quiet: no heartbeat or finish within the type's activity timeout. */
        TIMED_OUT,
        /** Cancelled while it ran. */
        CANCELLED;

        public String wireName() {
            return this == TIMED_OUT ? "timed-out" : name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
