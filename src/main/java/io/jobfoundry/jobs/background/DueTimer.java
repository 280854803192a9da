package io.jobfoundry.jobs.background;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.context.WatchBackoff;
import io.jobfoundry.jobs.records.JobKeys;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Runs the {@link DueWaker} when the next scheduled job falls due, not on a fixed poll: after each
 * run it sleeps until the earliest scheduled time it saw, and a watch on the store's
 * scheduled-jobs counter wakes it early when any replica schedules a job — so a job scheduled for
 * later reaches a waiting worker within milliseconds of its time. {@code maxSleep} bounds the
 * sleep as a safety net (a watch that could not be armed, a clock that jumped). A watch that
 * fails instead of firing wakes it too, after a {@link WatchBackoff} wait: one that fails as soon
 * as it is armed would otherwise make it run the waker back to back.
 *
 * <p>Runs on one thread of {@code executor}, never concurrently with itself. Its delays are the
 * executor's (real time); the instants it aims at come from the engine's clock.
 */
public final class DueTimer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DueTimer.class);
    /** Wake-ups closer together than this are coalesced: a burst of scheduled adds costs one run. */
    private static final Duration COALESCE = Duration.ofMillis(5);

    private final DueWaker waker;
    private final EngineContext context;
    private final ScheduledExecutorService executor;
    private final Duration maxSleep;
    private final Consumer<DueWaker.Result> onRun;
    private final WatchBackoff backoff = WatchBackoff.reported("the due timer");
    /** The run scheduled next; guarded by this, as are watch and closed. */
    private ScheduledFuture<?> next;
    private CompletableFuture<Void> watch = CompletableFuture.completedFuture(null);
    private boolean closed;

    public DueTimer(DueWaker waker, EngineContext context, ScheduledExecutorService executor, Duration maxSleep,
            Consumer<DueWaker.Result> onRun) {
        this.waker = waker;
        this.context = context;
        this.executor = executor;
        this.maxSleep = maxSleep;
        this.onRun = onRun;
    }

    /** Runs the waker now, then keeps it running at each due time. */
    public synchronized void start() {
        schedule(Duration.ZERO);
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
            // Armed before the scan: a job scheduled while the scan runs fires it, never slips by.
            CompletableFuture<Void> armed = context.runner().run(tx -> tx.watch(JobKeys.scheduledWatch()));
            replaceWatch(armed);
            DueWaker.Result result = waker.runOnce();
            onRun.accept(result);
            if (result.nextDue().isPresent()) {
                Duration untilDue = Duration.between(context.clock().instant(), result.nextDue().get());
                sleep = untilDue.compareTo(maxSleep) < 0 ? untilDue : maxSleep;
            }
        } catch (RuntimeException e) {
            LOG.warnf(e, "due timer: promoting due jobs failed; retrying in %s", maxSleep);
        }
        // Under the lock, as the watch's callback schedules: both replace next, and two runs
        // scheduled at once would run the waker concurrently with itself.
        synchronized (this) {
            schedule(sleep.isNegative() ? Duration.ZERO : sleep);
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
                LOG.debugf(why, "due timer: the watch on scheduled jobs failed; next run in %s", wait);
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
