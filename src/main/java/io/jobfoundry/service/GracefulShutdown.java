package io.jobfoundry.service;

import io.jobfoundry.jobs.background.DependencyTimer;
import io.jobfoundry.jobs.background.DueTimer;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.push.PushDispatcher;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * SIGTERM, in order: (1) while {@code quarkus.shutdown.delay} lasts (load balancers withdrawing
 * the replica), the service works as before, blocking accepts included: a worker looping on
 * accept would otherwise spin through the delay on {@code 204}s, its connection still held here;
 * (2) shortly before the delay ends ({@link #LEAD}), waiting stops: every blocked accept answers
 * {@code 204}, every {@code waitFor} answers the job as it is (as at its timeout) and every event
 * stream ends, so no worker hangs on a dying replica and the HTTP server is not held up by
 * long-polls; new ones answer at once, an accept with the jobs due then; (3) the HTTP server
 * refuses new requests and lets in-flight ones, and so their transactions, finish
 * ({@code quarkus.shutdown.timeout}); (4) push calls still in flight get what is left of that
 * timeout, counted from step 2, where push delivery stopped taking jobs; those still unanswered
 * then are dropped and their jobs given back ({@link PushDispatcher#drain}); (5) the store is
 * closed (its committer completes the batch under way) when its bean is disposed.
 *
 * <p>Step (2) must come before Quarkus' HTTP drain, which begins when the delay ends, so it is
 * timed from Quarkus' announcement of the shutdown; without a delay it runs at the announcement.
 */
@ApplicationScoped
public class GracefulShutdown {

    private static final Logger LOG = Logger.getLogger(GracefulShutdown.class);

    /** How long before the delay ends waiting stops: the answers go out before the HTTP drain. */
    static final Duration LEAD = Duration.ofMillis(500);

    private final JobWaits waits;
    private final DueTimer dueTimer;
    private final DependencyTimer dependencyTimer;
    private final PushDispatcher push;
    private final Optional<Duration> delay;
    private final Optional<Duration> timeout;
    private final AtomicBoolean draining = new AtomicBoolean();
    private volatile long drainStarted;

    GracefulShutdown(JobWaits waits, DueTimer dueTimer, DependencyTimer dependencyTimer, PushDispatcher push,
            @ConfigProperty(name = "quarkus.shutdown.delay") Optional<Duration> delay,
            @ConfigProperty(name = "quarkus.shutdown.timeout") Optional<Duration> timeout) {
        this.waits = waits;
        this.dueTimer = dueTimer;
        this.dependencyTimer = dependencyTimer;
        this.push = push;
        this.delay = delay;
        this.timeout = timeout;
    }

    void announced(@Observes ShutdownDelayInitiatedEvent event) {
        Duration serving = delay.orElse(Duration.ZERO).minus(LEAD);
        if (serving.isNegative() || serving.isZero()) {
            drain();
        } else {
            LOG.infof("shutting down: serving as before for %d ms of the shutdown delay", serving.toMillis());
            CompletableFuture.delayedExecutor(serving.toMillis(), TimeUnit.MILLISECONDS).execute(this::drain);
        }
    }

    /** Also on the shutdown event itself, for a shutdown that was not announced first. */
    void stopping(@Observes @Priority(1) ShutdownEvent event) {
        drain();
        Duration left = timeout.orElse(Duration.ZERO).minusNanos(System.nanoTime() - drainStarted);
        int inFlight = push.inFlight();
        int givenBack = push.drain(left.isNegative() ? Duration.ZERO : left);
        if (inFlight > 0) {
            LOG.infof("shutting down: %d push call(s) were in flight; %d unanswered job(s) given back", inFlight,
                    givenBack);
        }
    }

    /** True once waiting has stopped (step 2): background work should stand down. */
    public boolean draining() {
        return draining.get();
    }

    private void drain() {
        if (draining.compareAndSet(false, true)) {
            drainStarted = System.nanoTime();
            // Before the waits close, or the push lanes' accepts, answered at once, would open again.
            push.stopTaking();
            int waiting = waits.waitingAccepts();
            waits.close();
            dueTimer.close();
            dependencyTimer.close();
            LOG.infof("shutting down: answered %d waiting accept(s) with no job and every waitFor with the job "
                    + "as it is, ended event streams", waiting);
        }
    }
}
