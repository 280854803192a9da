package io.jobfoundry.service;

import io.jobfoundry.jobs.DueTimer;
import io.jobfoundry.jobs.JobWaits;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * SIGTERM, in order: (1) stop waiting — every blocked accept answers {@code 204}, every
 * {@code waitFor} answers the job as it is (as at its timeout) and every event stream ends, so no
 * worker hangs on a dying replica and the HTTP server is not held up by long-polls; new ones
 * answer at once, an accept with the jobs due then (while the shutdown delay lets load balancers
 * catch up, work still goes out); (2) the HTTP server refuses new requests and
 * lets in-flight ones, and so their transactions, finish ({@code quarkus.shutdown.timeout});
 * (3) the store is closed (its committer completes the batch under way) when its bean is disposed.
 *
 * <p>Step (1) runs when Quarkus announces the shutdown, before its optional delay
 * ({@code quarkus.shutdown.delay}, for load balancers to notice readiness going down).
 */
@ApplicationScoped
public class GracefulShutdown {

    private static final Logger LOG = Logger.getLogger(GracefulShutdown.class);

    private final JobWaits waits;
    private final DueTimer dueTimer;
    private final AtomicBoolean draining = new AtomicBoolean();

    GracefulShutdown(JobWaits waits, DueTimer dueTimer) {
        this.waits = waits;
        this.dueTimer = dueTimer;
    }

    void announced(@Observes ShutdownDelayInitiatedEvent event) {
        drain();
    }

    /** Also on the shutdown event itself, for a shutdown that was not announced first. */
    void stopping(@Observes @Priority(1) ShutdownEvent event) {
        drain();
    }

    /** True from the moment the shutdown was announced: background work should stand down. */
    public boolean draining() {
        return draining.get();
    }

    private void drain() {
        if (draining.compareAndSet(false, true)) {
            int waiting = waits.waitingAccepts();
            waits.close();
            dueTimer.close();
            LOG.infof("shutting down: answered %d waiting accept(s) with no job and every waitFor with the job "
                    + "as it is, ended event streams", waiting);
        }
    }
}
