package io.jobfoundry.push;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.TypeSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * One push type on this replica: a blocking accept through the same waits as any worker's (so
 * leases, fairness, priorities and pause hold, and no poll runs), for as many jobs as there are
 * free call slots; each job taken becomes a {@link PushCall}. At most {@code push.concurrency}
 * calls are in flight; while all slots are taken, no accept is open.
 */
final class PushLane {

    private static final Logger LOG = Logger.getLogger(PushLane.class);
    /** How long one accept waits: as a worker's long poll; an empty answer just opens the next. */
    static final Duration ACCEPT_WAIT = Duration.ofSeconds(30);
    /** The pause after an accept failed (the store unavailable), before the next. */
    private static final long FAILED_ACCEPT_PAUSE_MS = 1000;
    /** The worker name push runs show. */
    static final String WORKER = "push";

    private final PushContext push;
    private final String type;
    private final PushMetrics.TypeMeters meters;
    private final Set<PushCall> calls = ConcurrentHashMap.newKeySet();
    private volatile TypeSettings settings;
    private CompletableFuture<List<LeasedJob>> accepting;
    /** How many jobs the open accept may bring. */
    private int acceptingFor;
    private boolean stopped;

    PushLane(PushContext push, String type, TypeSettings settings) {
        this.push = push;
        this.type = type;
        this.settings = settings;
        this.meters = push.metrics().of(type);
        meters.concurrency.set(settings.push().concurrency());
    }

    PushMetrics.TypeMeters meters() {
        return meters;
    }

    TypeSettings settings() {
        return settings;
    }

    /**
     * New settings (url, timeout, concurrency) for the calls made from now on; a stopped lane takes
     * jobs again, its calls still in flight counted against the concurrency. An open accept that
     * may bring more jobs than a lowered concurrency leaves free is dropped for a narrower one: a
     * concurrency is lowered when the target is overloaded, and that accept could wait
     * {@link #ACCEPT_WAIT} for jobs. Answers whether it had stopped.
     */
    boolean update(TypeSettings settings) {
        boolean resumed;
        CompletableFuture<List<LeasedJob>> tooWide = null;
        synchronized (this) {
            this.settings = settings;
            resumed = stopped;
            stopped = false;
            meters.concurrency.set(settings.push().concurrency());
            if (accepting != null && acceptingFor > settings.push().concurrency() - calls.size()) {
                tooWide = accepting;
                accepting = null;
            }
        }
        if (tooWide != null) {
            // As stop() leaves one: its waiter gone, a job handed to it goes back to the queue.
            tooWide.cancel(false);
        }
        pump();
        return resumed;
    }

    /** Opens an accept for the free slots, unless one is open, none is free, or the lane has stopped. */
    void pump() {
        CompletableFuture<List<LeasedJob>> accept;
        synchronized (this) {
            int free = settings.push().concurrency() - calls.size();
            if (stopped || accepting != null || free <= 0) {
                return;
            }
            acceptingFor = Math.min(free, AcceptRequest.MAX_JOBS);
            AcceptRequest request = new AcceptRequest(List.of(type), acceptingFor, null, WORKER);
            accept = push.waits().accept(request, ACCEPT_WAIT).toCompletableFuture();
            accepting = accept;
        }
        Futures.whenDone(accept, (jobs, failure) -> taken(accept, jobs, failure));
    }

    private void taken(CompletableFuture<List<LeasedJob>> accept, List<LeasedJob> jobs, Throwable failure) {
        List<PushCall> started = new ArrayList<>();
        boolean keepGoing;
        synchronized (this) {
            if (accepting == accept) {
                accepting = null;
            }
            if (jobs != null && stopped) {
                // Taken as the lane stopped: back to the queue, for another replica or a worker.
                jobs.forEach(push::giveBackLater);
                return;
            }
            if (jobs != null) {
                TypeSettings now = settings;
                int free = now.push().concurrency() - calls.size();
                for (LeasedJob leased : jobs) {
                    if (free-- <= 0) {
                        // Brought by an accept the lowered concurrency dropped, which had already
                        // taken them: back to the queue, unchanged, rather than one call too many.
                        push.giveBackLater(leased);
                        continue;
                    }
                    PushCall call = new PushCall(push, meters, this::ended, leased, now.push(), now.activityTimeout());
                    calls.add(call);
                    started.add(call);
                }
                meters.inFlight.set(calls.size());
            }
            keepGoing = !stopped;
        }
        started.forEach(PushCall::start);
        if (failure != null && keepGoing && !accept.isCancelled()) {
            LOG.warnf("push of type %s: accept failed (%s); trying again in %d ms", type, failure,
                    FAILED_ACCEPT_PAUSE_MS);
            push.vertx().setTimer(FAILED_ACCEPT_PAUSE_MS, id -> pump());
        } else if (keepGoing) {
            pump();
        }
    }

    /** A call is over: its slot is free. */
    void ended(PushCall call) {
        synchronized (this) {
            calls.remove(call);
            meters.inFlight.set(calls.size());
        }
        pump();
    }

    /**
     * Takes no more jobs: the type stopped pushing, or the replica is shutting down. A waiting
     * accept is left (cancelled, its waiter gone, a job handed to it goes back to the queue); the
     * calls in flight go on. Answers whether it was taking jobs.
     */
    boolean stop() {
        CompletableFuture<List<LeasedJob>> open;
        boolean wasTaking;
        synchronized (this) {
            wasTaking = !stopped;
            stopped = true;
            meters.concurrency.set(0);
            open = accepting;
        }
        if (open != null) {
            open.cancel(false);
        }
        return wasTaking;
    }

    List<PushCall> calls() {
        return List.copyOf(calls);
    }
}
