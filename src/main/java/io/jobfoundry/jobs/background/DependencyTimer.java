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
 * Runs the {@link DependencyResolver} as soon as a job others wait for finishes or goes, not on a
 * poll: a watch on the store's marker counter ({@code ("y")}), which every such finish or removal
 * bumps on any replica, wakes it; {@code sweep} is only the safety net (a watch that could not be
 * armed). A watch that fails instead of firing wakes it after a {@link WatchBackoff} wait, as the
 * {@link DueTimer}'s does.
 *
 * <p>Runs on one thread of {@code executor}, never concurrently with itself.
 */
public final class DependencyTimer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DependencyTimer.class);
    /** Wake-ups closer together than this are coalesced: a burst of finishes costs one run. */
    private static final Duration COALESCE = Duration.ofMillis(5);

    private final DependencyResolver resolver;
    private final EngineContext context;
    private final ScheduledExecutorService executor;
    private final Duration sweep;
    private final Consumer<DependencyResolver.Result> onRun;
    private final WatchBackoff backoff = WatchBackoff.reported("the dependency resolver");
    /** The run scheduled next; guarded by this, as are watch and closed. */
    private ScheduledFuture<?> next;
    private CompletableFuture<Void> watch = CompletableFuture.completedFuture(null);
    private boolean closed;

    public DependencyTimer(DependencyResolver resolver, EngineContext context, ScheduledExecutorService executor,
            Duration sweep, Consumer<DependencyResolver.Result> onRun) {
        this.resolver = resolver;
        this.context = context;
        this.executor = executor;
        this.sweep = sweep;
        this.onRun = onRun;
    }

    /** Runs the resolver now, then whenever a marker is written (and every {@code sweep}). */
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
        try {
            // Armed before the run: a marker written while it runs fires it, never slips by.
            replaceWatch(context.runner().run(tx -> tx.watch(JobKeys.resolverWatch())));
            onRun.accept(resolver.runOnce(this::isClosed));
        } catch (RuntimeException e) {
            LOG.warnf(e, "dependency resolver: the run failed; retrying in %s", sweep);
        }
        synchronized (this) {
            schedule(sweep);
        }
    }

    private synchronized boolean isClosed() {
        return closed;
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
                LOG.debugf(why, "dependency resolver: the watch on markers failed; next run in %s", wait);
                schedule(wait);
            }
        });
    }

    /** Runs after {@code delay}, unless a run is already due sooner. Holds the lock. */
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
