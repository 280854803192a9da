package io.jobfoundry.jobs;

import java.time.Duration;

/**
 * How long to wait before acting on a store watch that failed instead of firing. A failed watch is
 * treated as a wake-up (something may have changed while nobody watched), but not at once: a watch
 * can fail the moment it is armed (FoundationDB's too_many_watches, future_version, a store that is
 * closing), and re-arming at once would spin through transactions. The wait doubles with each
 * failure in a row, from {@link #FIRST} up to {@link #MAX}, and starts over once a watch fires.
 *
 * <p>Only the delay is kept here; the caller schedules on its own timer, so tests drive it with
 * their own clock. Safe for concurrent use.
 */
final class WatchBackoff {

    static final Duration FIRST = Duration.ofMillis(50);
    /** Short enough that a replica whose watches all fail still serves waiters within seconds. */
    static final Duration MAX = Duration.ofSeconds(2);

    private Duration next = FIRST;

    /** A watch failed: the wait before treating that as a wake-up. */
    synchronized Duration failed() {
        Duration wait = next;
        Duration doubled = next.multipliedBy(2);
        next = doubled.compareTo(MAX) > 0 ? MAX : doubled;
        return wait;
    }

    /** A watch fired: the next failure waits {@link #FIRST} again. */
    synchronized void fired() {
        next = FIRST;
    }
}
