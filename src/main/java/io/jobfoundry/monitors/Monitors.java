package io.jobfoundry.monitors;

import io.jobfoundry.jobs.ActivityMonitor;
import io.jobfoundry.jobs.DueTimer;
import io.jobfoundry.jobs.OutcomeRetention;
import io.jobfoundry.service.GracefulShutdown;
import io.jobfoundry.service.JobfoundryConfig;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.ScheduledExecution;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The schedule of the engine's background work. Thin on purpose: each method only calls a plain
 * class's {@code runOnce()}, which tests drive directly with a mutable clock. The due timer keeps
 * its own schedule (the next job's due time), so it is only started here.
 */
@ApplicationScoped
public class Monitors {

    private static final Logger LOG = Logger.getLogger(Monitors.class);

    private final ActivityMonitor activity;
    private final DueTimer dueTimer;
    private final OutcomeRetention retention;
    private final JobfoundryConfig config;

    Monitors(ActivityMonitor activity, DueTimer dueTimer, OutcomeRetention retention, JobfoundryConfig config) {
        this.activity = activity;
        this.dueTimer = dueTimer;
        this.retention = retention;
        this.config = config;
    }

    void start(@Observes StartupEvent started) {
        if (config.monitor().enabled()) {
            dueTimer.start();
        }
    }

    @Scheduled(identity = "activity-monitor", every = "${jobfoundry.monitor.activity-interval:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Disabled.class)
    void activity() {
        for (Map.Entry<String, Integer> requeued : activity.runOnce().entrySet()) {
            LOG.infof("activity monitor: re-enqueued %d job(s) of type %s whose processor went quiet",
                    requeued.getValue(), requeued.getKey());
        }
    }

    @Scheduled(identity = "outcome-retention", every = "1m", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Disabled.class)
    void retention() {
        retention.runOnce();
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
