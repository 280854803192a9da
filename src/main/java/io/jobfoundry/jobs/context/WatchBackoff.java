package io.jobfoundry.jobs.context;

import io.jobfoundry.Futures;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.logging.Logger;

/**
 * How long to wait before acting on a store watch that failed instead of firing. A failed watch is
 * treated as a wake-up (something may have changed while nobody watched), but not at once: a watch
 * can fail the moment it is armed (FoundationDB's too_many_watches, future_version, a store that is
 * closing), and re-arming at once would spin through transactions. The bound on the wait doubles
 * with each failure in a row, from {@link #FIRST} up to {@link #MAX}, and starts over once a watch
 * fires; the wait itself is drawn below it at random (full jitter, as the transaction runner's), so
 * that the waiters whose watches failed together do not all look again together.
 *
 * <p>A waiter whose watches keep failing only looks every few seconds, so a streak of failures is
 * reported: once when it starts, once when a watch fires again, never per failure. The waiters
 * that stand for the whole replica (an accept dispatcher, the due timer) report at WARN; the
 * per-job ones ({@code waitFor}, event streams), of which thousands may fail together when the
 * store refuses watches, at DEBUG, since the replica-wide ones fail and warn then too.
 *
 * <p>Only the delay is kept here; the caller schedules on its own timer, so tests drive it with
 * their own clock. Safe for concurrent use.
 */
public final class WatchBackoff {

    private static final Logger LOG = Logger.getLogger(WatchBackoff.class);

    public static final Duration FIRST = Duration.ofMillis(50);
    /** Short enough that a replica whose watches all fail still serves waiters within seconds. */
    public static final Duration MAX = Duration.ofSeconds(2);

    private final String waiter;
    private final Logger.Level level;
    private Duration bound = FIRST;
    private long failures;

    private WatchBackoff(String waiter, Logger.Level level) {
        this.waiter = waiter;
        this.level = level;
    }

    /** For a waiter that stands for the replica, named by {@code waiter}: streaks are warnings. */
    public static WatchBackoff reported(String waiter) {
        return new WatchBackoff(waiter, Logger.Level.WARN);
    }

    /** For one of many per-job waiters, named by {@code waiter}: streaks are logged at DEBUG. */
    public static WatchBackoff quiet(String waiter) {
        return new WatchBackoff(waiter, Logger.Level.DEBUG);
    }

    /** What a waiter does about a watch that failed with {@code why}: look again after {@code wait}. */
    @FunctionalInterface
    public interface AfterFailure {
        void lookAgainAfter(Duration wait, Throwable why);
    }

    /**
     * Follows {@code watch} for a waiter: {@code fired} runs when it fires; when it fails,
     * {@code failed} is told how long to wait before acting on it as on a wake-up. A cancelled
     * watch, let go of by its waiter, runs neither.
     */
    public void follow(CompletableFuture<?> watch, Runnable fired, AfterFailure failed) {
        Futures.whenDone(watch, (ignored, failure) -> {
            if (failure == null) {
                fired();
                fired.run();
            } else if (!(Futures.cause(failure) instanceof CancellationException)) {
                Throwable why = Futures.cause(failure);
                failed.lookAgainAfter(failed(why), why);
            }
        });
    }

    /** A watch failed with {@code why}: the wait before treating that as a wake-up. */
    synchronized Duration failed(Throwable why) {
        if (failures++ == 0) {
            LOG.logf(level, why, "store watches for %s fail; looking again every %s at most until one fires",
                    waiter, MAX);
        }
        long nanos = ThreadLocalRandom.current().nextLong(bound.toNanos() + 1);
        Duration doubled = bound.multipliedBy(2);
        bound = doubled.compareTo(MAX) > 0 ? MAX : doubled;
        return Duration.ofNanos(nanos);
    }

    /** A watch fired: the streak, if any, is over, and the next failure waits {@link #FIRST} at most again. */
    synchronized void fired() {
        if (failures > 0) {
            LOG.logf(level == Logger.Level.WARN ? Logger.Level.INFO : level,
                    "store watches for %s fire again after %d failure(s)", waiter, failures);
        }
        failures = 0;
        bound = FIRST;
    }
}
