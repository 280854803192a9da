package io.jobfoundry.jobs.background;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.records.JobKeys;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * Runs the {@link DueWaker} when the next scheduled job falls due, not on a fixed poll: after each
 * run it sleeps until the earliest scheduled time it saw, and a watch on the store's
 * scheduled-jobs counter wakes it early when any replica schedules a job ({@link WatchedTimer}) —
 * so a job scheduled for later reaches a waiting worker within milliseconds of its time.
 * {@code maxSleep} bounds the sleep as a safety net.
 */
public final class DueTimer implements AutoCloseable {

    private final WatchedTimer timer;

    public DueTimer(DueWaker waker, EngineContext context, ScheduledExecutorService executor, Duration maxSleep,
            Consumer<DueWaker.Result> onRun) {
        this.timer = new WatchedTimer("the due timer", JobKeys.scheduledWatch(), context, executor, maxSleep, closing -> {
            DueWaker.Result result = waker.runOnce();
            onRun.accept(result);
            return result.nextDue().map(due -> Duration.between(context.clock().instant(), due)).orElse(null);
        });
    }

    /** Runs the waker now, then keeps it running at each due time. */
    public void start() {
        timer.start();
    }

    @Override
    public void close() {
        timer.close();
    }
}
