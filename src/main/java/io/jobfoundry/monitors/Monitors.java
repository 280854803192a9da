package io.jobfoundry.monitors;

import io.jobfoundry.DaemonThreads;
import io.jobfoundry.jobs.background.ActivityMonitor;
import io.jobfoundry.jobs.background.DependencyTimer;
import io.jobfoundry.jobs.background.DueTimer;
import io.jobfoundry.jobs.background.JobCleaner;
import io.jobfoundry.jobs.background.OutcomeRetention;
import io.jobfoundry.service.GracefulShutdown;
import io.jobfoundry.service.JobfoundryConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jboss.logging.Logger;

/**
 * The schedule of the engine's background work. Thin on purpose: each method only calls a plain
 * class's {@code runOnce()}, which tests drive directly with a mutable clock. The activity monitor
 * runs on a thread of its own at a pace set by the shortest activity timeout; the due timer keeps
 * its own schedule (the next job's due time), and the dependency timer runs the dependency resolver
 * when a job others wait for finishes or goes, so both are only started here.
 */
@ApplicationScoped
public class Monitors {

    private static final Logger LOG = Logger.getLogger(Monitors.class);
    /** The activity monitor never runs more often than this, however short a type's timeout. */
    private static final Duration MIN_ACTIVITY_INTERVAL = Duration.ofMillis(100);

    private final ActivityMonitor activity;
    private final DueTimer dueTimer;
    private final DependencyTimer dependencyTimer;
    private final OutcomeRetention retention;
    private final JobCleaner cleaner;
    private final JobfoundryConfig config;
    /** True once a shutdown began: background work stands down before the store closes. */
    private final BooleanSupplier draining;
    private ScheduledExecutorService activityThread;

    @Inject
    Monitors(ActivityMonitor activity, DueTimer dueTimer, DependencyTimer dependencyTimer, OutcomeRetention retention,
            JobCleaner cleaner, JobfoundryConfig config, GracefulShutdown shutdown) {
        this(activity, dueTimer, dependencyTimer, retention, cleaner, config, shutdown::draining);
    }

    Monitors(ActivityMonitor activity, DueTimer dueTimer, DependencyTimer dependencyTimer, OutcomeRetention retention,
            JobCleaner cleaner, JobfoundryConfig config, BooleanSupplier draining) {
        this.activity = activity;
        this.dueTimer = dueTimer;
        this.dependencyTimer = dependencyTimer;
        this.retention = retention;
        this.cleaner = cleaner;
        this.config = config;
        this.draining = draining;
    }

    void start(@Observes StartupEvent started) {
        if (config.monitor().enabled()) {
            dueTimer.start();
            dependencyTimer.start();
            // Its own thread, not the scheduler: a type with a 2 s timeout wants a check every 200 ms.
            activityThread = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("jobfoundry-activity-monitor"));
            activityThread.execute(this::activityRound);
        }
    }

    @PreDestroy
    void stop() {
        if (activityThread != null) {
            activityThread.shutdownNow();
        }
    }

    private void activityRound() {
        if (draining.getAsBoolean()) {
            return;
        }
        try {
            activity();
        } catch (RuntimeException e) {
            LOG.warnf(e, "activity monitor: the check failed; trying again");
        }
        Duration next = activity.nextRunWithin(MIN_ACTIVITY_INTERVAL, config.monitor().activityInterval());
        activityThread.schedule(this::activityRound, next.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Takes back the jobs of processors that went quiet, with one line per type. */
    void activity() {
        for (Map.Entry<String, Integer> requeued : activity.runOnce().entrySet()) {
            // Taken back: retried, or ended when out of attempts, cancelled or at the end of a series.
            LOG.infof("activity monitor: took back %d job(s) of type %s whose processor went quiet",
                    requeued.getValue(), requeued.getKey());
        }
    }

    @Scheduled(identity = "outcome-retention", every = "1m", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Disabled.class)
    void retention() {
        // A long run is many transactions: a shutdown stops it between two, not when the store closes.
        retention.runOnce(draining);
    }

    /** Removes finished jobs past their type's retention, with one line per type at DEBUG (the counter is the record). */
    @Scheduled(identity = "job-cleaner", every = "${jobfoundry.monitor.retention-interval:5s}",
            delayed = "${jobfoundry.monitor.retention-interval:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Disabled.class)
    void cleaner() {
        for (Map.Entry<String, Integer> removed : cleaner.runOnce(draining).entrySet()) {
            LOG.debugf("retention: removed %d finished job(s) of type %s", removed.getValue(), removed.getKey());
        }
    }

    /**
     * {@code jobfoundry.monitor.enabled=false} switches every monitor off; a shutdown stops them
     * before the store closes.
     */
    @Singleton
    static class Disabled implements Scheduled.SkipPredicate {
        private final JobfoundryConfig config;
        private final GracefulShutdown shutdown;

        Disabled(JobfoundryConfig config, GracefulShutdown shutdown) {
            this.config = config;
            this.shutdown = shutdown;
        }

        @Override
        public boolean test(ScheduledExecution execution) {
            return !config.monitor().enabled() || shutdown.draining();
        }
    }
}
