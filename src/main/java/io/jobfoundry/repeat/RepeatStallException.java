package io.jobfoundry.repeat;

import java.time.Instant;

/**
 * A repeat that does not always move forward: from some base time its next time is that time or
 * before it. A job repeating by it would run back to back for good — {@code SCHEDULED} catching up
 * with itself, {@code FINISHED} going back in time — so a job, or a preview, refuses it.
 */
public final class RepeatStallException extends RepeatException {

    private final String repeat;
    private final Instant from;
    private final Instant next;

    RepeatStallException(String repeat, Instant from, Instant next) {
        super("repeat does not move forward");
        this.repeat = repeat;
        this.from = from;
        this.next = next;
    }

    /** The normalized expression. */
    public String repeat() {
        return repeat;
    }

    /** A base time it does not move forward from. */
    public Instant from() {
        return from;
    }

    /** What it gives from {@link #from()}: not after it. */
    public Instant next() {
        return next;
    }

    @Override
    public String detail() {
        return "repeat " + quote(repeat) + " does not move forward: from " + from + " its next run is " + next
                + "; a repeat must always give a time after the one it counts from (e.g. 'FINISHED, +1 DAY, "
                + "START OF DAY, +12 HOURS' rather than 'FINISHED, START OF DAY, +12 HOURS')";
    }
}
