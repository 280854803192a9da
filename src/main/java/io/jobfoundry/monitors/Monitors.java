package io.jobfoundry.monitors;

import io.jobfoundry.jobs.ActivityMonitor;
import io.jobfoundry.jobs.DueWaker;
import io.jobfoundry.jobs.OutcomeRetention;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The schedule of the engine's background work. Thin on purpose: each method only calls a plain
 * class's {@code runOnce()}, which tests drive directly with a mutable clock.
 */
@ApplicationScoped
public class Monitors {

    private static final Logger LOG = Logger.getLogger(Monitors.class);

    private final ActivityMonitor activity;
    private final DueWaker waker;
    private final OutcomeRetention retention;

    Monitors(ActivityMonitor activity, DueWaker waker, OutcomeRetention retention) {
        this.activity = activity;
        this.waker = waker;
        this.retention = retention;
    }

    @Scheduled(identity = "activity-monitor", every = "${jobfoundry.monitor.activity-interval:1s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void activity() {
        for (Map.Entry<String, Integer> requeued : activity.runOnce().entrySet()) {
            LOG.infof("activity monitor: re-enqueued %d job(s) of type %s whose processor went quiet",
                    requeued.getValue(), requeued.getKey());
        }
    }

    @Scheduled(identity = "due-waker", every = "${jobfoundry.monitor.due-interval:250ms}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void due() {
        var result = waker.runOnce();
        result.promoted().forEach((type, count) -> LOG.debugf("due waker: %d job(s) of type %s due", count, type));
    }

    @Scheduled(identity = "outcome-retention", every = "1m", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void retention() {
        retention.runOnce();
    }
}
