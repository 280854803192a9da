package io.jobfoundry.jobs;

import io.jobfoundry.Futures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * Serves the processors blocked in accept for one set of types: all of them in one transaction
 * per round, oldest waiter first, instead of one transaction per waiter per wake-up (which would
 * make every new job wake every worker). When the round leaves some waiting, the same
 * transaction arms a watch; when it fires — a job became ready here or on another replica — the
 * next round runs. No thread waits in between.
 */
final class AcceptDispatcher {

    private static final Logger LOG = Logger.getLogger(AcceptDispatcher.class);
    /** Jobs handed out per round at most: a round is one transaction within FDB's limits. */
    private static final int ROUND_JOBS = AcceptRequest.MAX_JOBS;

    /** A blocked accept. */
    static final class Waiter {
        final AcceptRequest request;
        final CompletableFuture<List<LeasedJob>> result = new CompletableFuture<>();

        Waiter(AcceptRequest request) {
            this.request = request;
        }
    }

    private final JobEngine engine;
    private final Executor executor;
    private final List<String> types;
    private final Instant maxScheduledAt;
    private final ConcurrentLinkedDeque<Waiter> queue = new ConcurrentLinkedDeque<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicReference<List<CompletableFuture<Void>>> armed = new AtomicReference<>(List.of());
    private volatile boolean signalled;

    AcceptDispatcher(JobEngine engine, Executor executor, List<String> types, Instant maxScheduledAt) {
        this.engine = engine;
        this.executor = executor;
        this.types = types;
        this.maxScheduledAt = maxScheduledAt;
    }

    void add(Waiter waiter) {
        queue.add(waiter);
        waiter.result.whenComplete((jobs, failure) -> queue.remove(waiter));
        signal();
    }

    /**
     * Something may be ready: run a round now, on the calling thread, or right after the one under
     * way. A round only reads the queue and submits one transaction, so it may run on any thread:
     * a new waiter's request thread, or the thread that fires a store watch. Handing it to the
     * executor instead cost a thread wake-up on every blocking accept and every hand-off.
     */
    void signal() {
        signalled = true;
        if (draining.compareAndSet(false, true)) {
            drain();
        }
    }

    /**
     * Runs rounds while something may be ready. A round's transaction completes on the store's
     * thread, which must stay free for commits, so each next round is handed to the executor from
     * there; that also keeps a store that fails at once from recursing. No thread waits for a commit.
     */
    private void drain() {
        signalled = false;
        CompletableFuture<Void> done;
        try {
            done = round();
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        done.whenComplete((ignored, failure) -> {
            if (failure != null) {
                Throwable cause = Futures.cause(failure);
                LOG.warnf(cause, "accept round for %s failed; its waiters get the error", types);
                for (Waiter waiter : queue) {
                    waiter.result.completeExceptionally(cause);
                }
            }
            if (signalled && !queue.isEmpty()) {
                executor.execute(this::drain);
                return;
            }
            draining.set(false);
            // A signal that came after the check above and found draining still set would be lost.
            if (signalled && !queue.isEmpty() && draining.compareAndSet(false, true)) {
                executor.execute(this::drain);
            }
        });
    }

    private CompletableFuture<Void> round() {
        List<Waiter> batch = new ArrayList<>();
        List<JobEngine.Claim> claims = new ArrayList<>();
        int jobs = 0;
        for (Waiter waiter : queue) {
            if (waiter.result.isDone()) {
                continue;
            }
            if (jobs + waiter.request.max() > ROUND_JOBS && !batch.isEmpty()) {
                signalled = true; // the rest in the next round
                break;
            }
            batch.add(waiter);
            claims.add(new JobEngine.Claim(waiter.request.worker(), waiter.request.max()));
            jobs += waiter.request.max();
        }
        if (batch.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return engine.acceptForAsync(types, maxScheduledAt, claims, true).thenAccept(result -> {
            List<LeasedJob> orphans = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                List<LeasedJob> handed = result.jobs().get(i);
                if (!handed.isEmpty() && !batch.get(i).result.complete(handed)) {
                    orphans.addAll(handed); // the waiter's time ran out while the round ran
                }
            }
            if (!orphans.isEmpty()) {
                // Back to the queue, untouched; not on the store's thread, which cannot start a transaction.
                executor.execute(() -> orphans.forEach(engine::release));
            }
            rearm(result.wake());
        });
    }

    private void rearm(List<CompletableFuture<Void>> wake) {
        for (CompletableFuture<Void> old : armed.getAndSet(wake)) {
            Futures.cancel(old);
        }
        for (CompletableFuture<Void> watch : wake) {
            watch.whenComplete((ignored, failure) -> {
                if (failure == null || !(failure instanceof CancellationException)) {
                    signal();
                }
            });
        }
    }

    int waiting() {
        return queue.size();
    }

    /** Ends every wait with no job (shutdown) and lets go of the watch. */
    void close() {
        for (Waiter waiter : queue) {
            waiter.result.complete(List.of());
        }
        rearm(List.of());
    }
}
