package io.jobfoundry.jobs.background;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.records.DependencyKeys;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * Runs the {@link DependencyResolver} as soon as a job others wait for finishes or goes, not on a
 * poll: a watch on the store's marker counter ({@code ("y")}), which every such finish or removal
 * bumps on any replica, wakes it; {@code sweep} is only the safety net (a watch that could not be
 * armed). The loop is {@link WatchedTimer}'s, as the {@link DueTimer}'s is.
 */
public final class DependencyTimer implements AutoCloseable {

    private final WatchedTimer timer;

    public DependencyTimer(DependencyResolver resolver, EngineContext context, ScheduledExecutorService executor,
            Duration sweep, Consumer<DependencyResolver.Result> onRun) {
        this.timer = new WatchedTimer("the dependency resolver", DependencyKeys.resolverWatch(), context, executor, sweep,
                closing -> {
                    onRun.accept(resolver.runOnce(closing));
                    return null; // nothing to aim at: the next marker wakes it
                });
    }

    /** Runs the resolver now, then whenever a marker is written (and every {@code sweep}). */
    public void start() {
        timer.start();
    }

    @Override
    public void close() {
        timer.close();
    }
}
