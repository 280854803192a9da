package io.jobfoundry.repeat;

import java.time.Instant;

/** The moment of the last run that a {@link ModifierRepeat} counts from (Bedrock's "repeat base"). */
public enum Base {
    /** When the run was due; a schedule that fell behind catches up with runs back to back. */
    SCHEDULED,
    /** When the run started. */
    STARTED,
    /** When the run finished; the next run never comes sooner than the interval after it. */
    FINISHED;

    Instant pick(Instant scheduled, Instant started, Instant finished) {
        return switch (this) {
            case SCHEDULED -> scheduled;
            case STARTED -> started;
            case FINISHED -> finished;
        };
    }
}
