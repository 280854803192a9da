package io.jobfoundry.repeat;

import java.time.Instant;

/**
 * A repeat whose next time, or a step on the way to it, falls outside 0000-01-01T00:00:00Z to
 * 9999-12-31T23:59:59.999Z — the years SQLite's date functions can write, and so the only times a
 * Bedrock repeat can produce. Also thrown when the time it starts from is outside that
 * range, and for a cron expression that has no further fire time in it.
 */
public final class RepeatRangeException extends RepeatException {

    private final String repeat;
    private final Instant from;

    RepeatRangeException(String repeat, Instant from) {
        super("repeat leaves the supported time range");
        this.repeat = repeat;
        this.from = from;
    }

    /** The normalized expression. */
    public String repeat() {
        return repeat;
    }

    /** The time the evaluation started from (the base). */
    public Instant from() {
        return from;
    }

    @Override
    public String detail() {
        return "repeat " + quote(repeat) + " from " + from + " leaves the supported time range "
                + Timeline.RANGE_TEXT;
    }
}
