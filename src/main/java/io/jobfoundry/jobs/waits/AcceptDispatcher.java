package io.jobfoundry.jobs.waits;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.accept.AcceptBatch;
import io.jobfoundry.jobs.accept.Accepting;
import io.jobfoundry.jobs.accept.Claim;
import io.jobfoundry.jobs.accept.HandOff;
import io.jobfoundry.jobs.accept.ReadyWatch;
import io.jobfoundry.jobs.context.WatchBackoff;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.jobs.records.Times;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Serves the processors blocked in accept for one set of types: all of them in one transaction
 * per round, oldest waiter first, instead of one transaction per waiter per wake-up (which would
 * make every new job wake every worker). When the round leaves some waiting, it leaves a watch on
 * the ready counters of their types, armed once it has committed ({@link ReadyWatch}: set in the
 * round if it wrote nothing, else by a read-only transaction right after); when it fires — a job
 * became ready here or on another replica — the next round runs. No thread waits in between. A
 * job added on this replica while a processor waits does not need the watch: the adding
 * transaction claims the oldest waiter and serves it itself ({@link #claim()},
 * {@link Accepting#addAndHandOff}). A watch that fails instead of firing also leads to a round,
 * after a {@link WatchBackoff} wait on {@code timer}.
 */
final class AcceptDispatcher {

    private static final Logger LOG = Logger.getLogger(AcceptDispatcher.class);
    /** Jobs handed out per round at most: a round is one transaction within FDB's limits. */
    private static final int ROUND_JOBS = AcceptRequest.MAX_JOBS;

    /**
     * A blocked accept. It is served by one transaction at a time: a round of this dispatcher, or
     * the transaction that adds a job it can take ({@link HandOff}); {@code busy} says
     * one has it, so the other passes it over instead of taking a second job for it.
     */
    final class Waiter implements HandOff {
        final AcceptRequest request;
        final CompletableFuture<List<LeasedJob>> result = new CompletableFuture<>();
        private final AtomicBoolean busy = new AtomicBoolean();
        private volatile boolean waitOver;

        private Waiter(AcceptRequest request) {
            this.request = request;
        }

        /**
         * Its wait has ended: it is answered with no jobs now, unless a transaction is serving it,
         * and then with what that transaction hands it, when it ends. Jobs are not taken for a
         * waiter only to be given back because its wait ended while they were taken: on a slow
         * store (FoundationDB under load, a round of a hundred jobs) a round can outlast short
         * waits, and every round would then give back all it took while the queue stood still.
         * The answer is late by at most that transaction.
         */
        void waitOver() {
            waitOver = true;
            if (!busy.get()) {
                result.complete(List.of());
            }
        }

        /** No transaction serves it any more; if its wait ended meanwhile, it is answered now. */
        private void free() {
            busy.set(false);
            if (waitOver) {
                result.complete(List.of());
            }
        }

        /** Whether a transaction may still take jobs for it. */
        private boolean open() {
            return !result.isDone() && !waitOver;
        }

        @Override
        public AcceptRequest request() {
            return request;
        }

        /**
         * When the adding transaction is over, usually on a store thread that completes commits
         * (the embedded store's committer or acknowledger). It could start the round's
         * asynchronous transaction, which only queues it, but it must stay free for commits, so a
         * round this calls for runs on the executor.
         */
        @Override
        public void settle(List<LeasedJob> jobs) {
            hand(this, jobs);
            free();
            if (!result.isDone()) {
                // Passed over by a round while the hand-off had it, it may have missed a job.
                executor.execute(AcceptDispatcher.this::signal);
            }
        }
    }

    private final Accepting accepting;
    private final Executor executor;
    private final ScheduledExecutorService timer;
    private final WatchBackoff backoff;
    private final List<String> types;
    private final Instant maxScheduledAt;
    /** Told when the last waiter has left, so that its owner can let go of it. */
    private final Consumer<AcceptDispatcher> whenIdle;
    private final ConcurrentLinkedDeque<Waiter> queue = new ConcurrentLinkedDeque<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    /** The watch the last round left its waiters; null when none. */
    private final AtomicReference<CompletableFuture<Void>> armed = new AtomicReference<>();
    private volatile boolean signalled;
    /** The round set to run after a watch failed; null when none is pending. Guarded by this. */
    private ScheduledFuture<?> retry;
    /** The round set to run when a rate limit frees a slot, and that instant; null when none. Guarded by this. */
    private ScheduledFuture<?> rateTimer;
    private Instant rateTimerAt;

    AcceptDispatcher(Accepting accepting, Executor executor, ScheduledExecutorService timer, List<String> types,
            Instant maxScheduledAt, Consumer<AcceptDispatcher> whenIdle) {
        this.accepting = accepting;
        this.executor = executor;
        this.timer = timer;
        this.types = types;
        this.maxScheduledAt = maxScheduledAt;
        this.whenIdle = whenIdle;
        this.backoff = WatchBackoff.reported("accepts of " + types);
    }

    /**
     * Queues a blocked accept, to be served after the next {@link #signal()}; its result completes
     * with the jobs it is handed.
     */
    Waiter enqueue(AcceptRequest request) {
        Waiter waiter = new Waiter(request);
        queue.add(waiter);
        Futures.whenDone(waiter.result, (jobs, failure) -> {
            queue.remove(waiter);
            if (queue.isEmpty()) {
                whenIdle.accept(this);
            }
        });
        return waiter;
    }

    /** Whether no accept is waiting here. */
    boolean idle() {
        return queue.isEmpty();
    }

    /** Whether a job of {@code type} due at {@code dueMicros} is one this dispatcher's waiters ask for. */
    boolean serves(String type, long dueMicros) {
        if (maxScheduledAt != null && Times.micros(maxScheduledAt) < dueMicros) {
            return false;
        }
        for (String pattern : types) {
            if (pattern.equals(type) || TypeNames.isGlob(pattern) && TypeNames.matches(pattern, type)) {
                return true;
            }
        }
        return false;
    }

    /** The oldest waiter that no transaction is serving, now claimed for a hand-off; or null. */
    Waiter claim() {
        for (Waiter waiter : queue) {
            if (waiter.open() && waiter.busy.compareAndSet(false, true)) {
                if (waiter.open()) {
                    return waiter;
                }
                waiter.free();
            }
        }
        return null;
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
     * Runs rounds while something may be ready. A round's transaction completes on a store thread,
     * which must stay free for commits, so each next round is handed to the executor from there;
     * that also keeps a store that fails at once from recursing. Only the watch a writing round
     * leaves is armed right there: its transaction is asynchronous and only queued. No thread waits
     * for a commit.
     */
    private void drain() {
        signalled = false;
        CompletableFuture<Void> done;
        try {
            done = round();
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        Futures.whenDone(done, (ignored, failure) -> {
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
        List<Claim> claims = new ArrayList<>();
        int jobs = 0;
        for (Waiter waiter : queue) {
            if (!waiter.open()) {
                continue;
            }
            if (jobs + waiter.request.max() > ROUND_JOBS && !batch.isEmpty()) {
                signalled = true; // the rest in the next round
                break;
            }
            if (!waiter.busy.compareAndSet(false, true)) {
                continue; // a hand-off has it; it signals when done
            }
            batch.add(waiter);
            claims.add(new Claim(waiter.request.worker(), waiter.request.max()));
            jobs += waiter.request.max();
        }
        if (batch.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<AcceptBatch> done;
        try {
            done = accepting.acceptForAsync(types, maxScheduledAt, claims, true);
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        return done.whenComplete((result, failure) -> {
            if (result != null) {
                for (int i = 0; i < batch.size(); i++) {
                    hand(batch.get(i), result.jobs().get(i));
                }
                watch(result.wake());
                wakeAt(result.rateFreesAt());
            }
            batch.forEach(Waiter::free);
        }).thenAccept(result -> { });
    }

    /** Gives a waiter its jobs; if it left while the transaction ran (its worker hung up), they go back to the queue. */
    private void hand(Waiter waiter, List<LeasedJob> jobs) {
        if (!jobs.isEmpty() && !waiter.result.complete(jobs)) {
            // Untouched. Not here, where a commit was just completed: release runs a blocking
            // transaction, and a store thread waiting for a commit (its own, on the embedded store)
            // would wait for good.
            executor.execute(() -> jobs.forEach(accepting::release));
        }
    }

    /** The round has committed: its waiters wait on its watch, unless all have left meanwhile. */
    private void watch(ReadyWatch wake) {
        if (queue.isEmpty()) { // a watch now would wake nobody
            wake.release();
            rearm(null);
            return;
        }
        CompletableFuture<Void> woken = wake.arm(accepting.context().runner());
        rearm(woken);
        // The last waiter may have left, and retire() run, since the check above: the watch would
        // outlive the dispatcher, holding one of the store's watches (FDB: max_watches) until it
        // fired. Unless a newer round has replaced it already, it is let go of here.
        if (queue.isEmpty() && armed.compareAndSet(woken, null)) {
            Futures.cancel(woken);
        }
    }

    /** Lets go of the watch armed before, and waits on {@code wake} (if not null) instead. */
    private void rearm(CompletableFuture<Void> wake) {
        CompletableFuture<Void> old = armed.getAndSet(wake);
        if (old != null) {
            Futures.cancel(old);
        }
        if (wake == null) {
            return;
        }
        backoff.follow(wake, this::signal, this::retryLater);
    }

    /**
     * A watch failed, so a job may have become ready unseen: a round must run, but not at once. A
     * watch that fails as soon as it is armed (FoundationDB's too_many_watches, say) would make
     * every round arm another and lose it at once, a loop of back-to-back transactions. One retry
     * pending is enough however many watches failed.
     */
    private synchronized void retryLater(Duration wait, Throwable why) {
        if (retry != null) {
            return;
        }
        LOG.debugf(why, "watch for accepts of %s failed; next round in %s", types, wait);
        retry = timer.schedule(this::retryNow, wait.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void retryNow() {
        // Cleared before the round: a watch of that round may fail before this task is over.
        synchronized (this) {
            retry = null;
        }
        signal();
    }

    /**
     * A rate limit held a waiter back until {@code at} (the engine's clock): a round then, since
     * nothing in the store changes at that moment for a watch to see. One timer, at the earliest
     * such instant; a round at it that is held back again sets the next. Not a poll: each timer
     * aims at the instant a slot frees.
     */
    private synchronized void wakeAt(Instant at) {
        if (at == null || queue.isEmpty()) {
            return;
        }
        if (rateTimer != null && !rateTimer.isDone() && !rateTimerAt.isAfter(at)) {
            return;
        }
        if (rateTimer != null) {
            rateTimer.cancel(false);
        }
        // A millisecond late: the executor's time and the clock's may differ by a little, and a
        // round a hair early would only find the slot busy and set the timer again.
        Duration wait = Duration.between(accepting.context().clock().instant(), at).plusMillis(1);
        rateTimerAt = at;
        rateTimer = timer.schedule(this::signal, Math.max(0, wait.toNanos()), TimeUnit.NANOSECONDS);
    }

    private synchronized void cancelRetry() {
        if (retry != null) {
            retry.cancel(false);
            retry = null;
        }
        if (rateTimer != null) {
            rateTimer.cancel(false);
            rateTimer = null;
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
        retire();
    }

    /** Lets go of the watch; a waiter queued afterwards arms a new one with its first round. */
    void retire() {
        cancelRetry();
        rearm(null);
    }
}
