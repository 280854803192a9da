package io.jobfoundry.jobs.background;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.context.WatchBackoff;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Runs a monitor's pass when the store says there is work, not on a poll: every run first arms a
 * watch on a counter key that any replica bumps when it makes such work (so work made while the
 * pass runs fires the watch, never slips by), then runs the pass, then sleeps as long as the pass
 * asks, at most {@code maxSleep} — the safety net for a watch that could not be armed or a clock
 * that jumped. The watch firing cuts the sleep short; a watch that fails instead of firing does
 * too, after a {@link WatchBackoff} wait, since one that fails as soon as it is armed would
 * otherwise make the pass run back to back. Wake-ups closer together than {@link #COALESCE}
 * are one run: a burst of work costs one pass.
 *
 * <p>Runs on one thread of {@code executor}, never concurrently with itself. Its delays are the
 * executor's (real time); the instants a pass aims at come from the engine's clock.
 */
final class WatchedTimer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WatchedTimer.class);
    static final Duration COALESCE = Duration.ofMillis(5);

    private final String name;
    private final byte[] key;
    private final EngineContext context;
    private final ScheduledExecutorService executor;
    private final Duration maxSleep;
    private final Function<BooleanSupplier, Duration> pass;
    private final WatchBackoff backoff;
    /** The run scheduled next; guarded by this, as are watch and closed. */
    private ScheduledFuture<?> next;
    private CompletableFuture<Void> watch = CompletableFuture.completedFuture(null);
    private boolean closed;

    /**
     * {@code pass} does the work and answers how long it would sleep (null: as long as allowed); it
     * is given what says the timer is closing, for a long pass to ask between its transactions.
     * {@code name} names the timer in logs ("the due timer").
     */
    WatchedTimer(String name, byte[] key, EngineContext context, ScheduledExecutorService executor, Duration maxSleep,
            Function<BooleanSupplier, Duration> pass) {
        this.name = name;
        this.key = key;
        this.context = context;
        this.executor = executor;
        this.maxSleep = maxSleep;
        this.pass = pass;
        this.backoff = WatchBackoff.reported(name);
    }

    /** Runs the pass now, then whenever there is work. */
    synchronized void start() {
        schedule(Duration.ZERO);
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private void run() {
        synchronized (this) {
            if (closed) {
                return;
            }
            next = null;
        }
        Duration sleep = maxSleep;
        try {
            replaceWatch(context.runner().run(tx -> tx.watch(key)));
            Duration wanted = pass.apply(this::isClosed);
            if (wanted != null && wanted.compareTo(maxSleep) < 0) {
                sleep = wanted.isNegative() ? Duration.ZERO : wanted;
            }
        } catch (RuntimeException e) {
            LOG.warnf(e, "%s: its run failed; retrying in %s", name, maxSleep);
        }
        // Under the lock, as the watch's callback schedules: both replace next, and two runs
        // scheduled at once would run the pass concurrently with itself.
        synchronized (this) {
            schedule(sleep);
        }
    }

    private void replaceWatch(CompletableFuture<Void> armed) {
        synchronized (this) {
            watch.cancel(false);
            watch = armed;
        }
        backoff.follow(armed, () -> {
            synchronized (this) {
                schedule(COALESCE);
            }
        }, (wait, why) -> {
            synchronized (this) {
                LOG.debugf(why, "%s: its watch failed; next run in %s", name, wait);
                schedule(wait);
            }
        });
    }

    /** Runs after {@code delay}, unless a run is already due sooner (by the executor's own clock). Holds the lock. */
    private void schedule(Duration delay) {
        if (closed) {
            return;
        }
        if (next != null && !next.isDone() && next.getDelay(TimeUnit.NANOSECONDS) <= delay.toNanos()) {
            return;
        }
        if (next != null) {
            next.cancel(false);
        }
        next = executor.schedule(this::run, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public synchronized void close() {
        closed = true;
        watch.cancel(false);
        if (next != null) {
            next.cancel(false);
        }
    }
}
