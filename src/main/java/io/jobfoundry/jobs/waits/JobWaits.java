package io.jobfoundry.jobs.waits;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.accept.Accepting;
import io.jobfoundry.jobs.accept.HandOff;
import io.jobfoundry.jobs.accept.Waiters;
import io.jobfoundry.jobs.context.WatchBackoff;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobEvent;
import io.jobfoundry.jobs.model.JobNotFoundException;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.records.JobRecord;
import io.jobfoundry.kv.TransactionRunner;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Waiting without polling and without a thread per waiter: blocking accepts, {@code waitFor} and
 * subscriptions all rest on store watches (on FoundationDB they see other replicas' commits too).
 * Work runs on {@code executor}; timeouts, and the {@link WatchBackoff} after a watch failed, on
 * {@code timer}, in real time.
 */
public final class JobWaits implements Waiters, AutoCloseable {

    private final Accepting accepting;
    private final TransactionRunner runner;
    private final Executor executor;
    private final ScheduledExecutorService timer;
    private final ConcurrentHashMap<DispatchKey, AcceptDispatcher> dispatchers = new ConcurrentHashMap<>();
    private final Set<Subscription> subscriptions = ConcurrentHashMap.newKeySet();
    /** How to answer each waitFor under way at once, for a shutdown. */
    private final Set<Runnable> waitingFor = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private record DispatchKey(List<String> types, Instant maxScheduledAt) {
    }

    /** Waits served by {@code accepting}'s transactions: build the engine with these waits, so that adds hand off to them. */
    public JobWaits(Accepting accepting, Executor executor, ScheduledExecutorService timer) {
        this.accepting = accepting;
        this.runner = accepting.context().runner();
        this.executor = executor;
        this.timer = timer;
    }

    /** Accept, waiting up to {@code wait} for a job if none is due now ({@link Duration#ZERO}: answer at once). */
    public CompletionStage<List<LeasedJob>> accept(AcceptRequest request, Duration wait) {
        long asked = System.nanoTime();
        CompletableFuture<List<LeasedJob>> answer;
        if (closed || wait.isZero() || wait.isNegative()) {
            // Nothing to wait for, or no more waiting (a shutdown, whose delay may last seconds
            // while jobs fall due: they are still handed out, only nobody is kept waiting): one
            // transaction, straight from the caller, not the waits pool.
            answer = accepting.acceptAsync(request);
        } else {
            // Queued under the map's lock, so that an idle dispatcher is never let go with a waiter in it.
            List<AcceptDispatcher.Waiter> queued = new ArrayList<>(1);
            AcceptDispatcher dispatcher = dispatchers.compute(new DispatchKey(request.types(), request.maxScheduledAt()),
                    (key, live) -> {
                        AcceptDispatcher serving = live != null ? live : new AcceptDispatcher(accepting, executor,
                                timer, key.types(), key.maxScheduledAt(), idle -> letGo(key, idle));
                        queued.add(serving.enqueue(request));
                        return serving;
                    });
            dispatcher.signal();
            AcceptDispatcher.Waiter waiter = queued.get(0);
            CompletableFuture<List<LeasedJob>> waiting = waiter.result;
            var timeout = timer.schedule(waiter::waitOver, wait.toNanos(), TimeUnit.NANOSECONDS);
            Futures.whenDone(waiting, (jobs, failure) -> timeout.cancel(false));
            answer = waiting;
        }
        Futures.whenDone(answer, (jobs, failure) -> {
            if (jobs != null) {
                accepting.context().observer().acceptAnswered(Duration.ofNanos(System.nanoTime() - asked), jobs.size());
            }
        });
        // The caller's cancel (a worker that hung up) must reach the waiter itself.
        return answer;
    }

    /**
     * Drops a dispatcher whose last waiter has left. Dispatchers are keyed by types and
     * {@code maxScheduledAt}, which workers may set anew on every call: kept, they would pile up,
     * and every job added would look through them for a waiter.
     */
    private void letGo(DispatchKey key, AcceptDispatcher idle) {
        dispatchers.computeIfPresent(key, (k, live) -> {
            if (live != idle || !idle.idle()) {
                return live;
            }
            idle.retire();
            return null;
        });
    }

    /** Dispatchers alive now: one per set of types and {@code maxScheduledAt} with a waiter. */
    int dispatchers() {
        return dispatchers.size();
    }

    /** The oldest accept blocked here that could take a job of {@code type} due at {@code dueMicros}, claimed; or null. */
    @Override
    public HandOff claim(String type, long dueMicros) {
        if (closed) {
            return null;
        }
        for (AcceptDispatcher dispatcher : dispatchers.values()) {
            if (dispatcher.serves(type, dueMicros)) {
                AcceptDispatcher.Waiter waiter = dispatcher.claim();
                if (waiter != null) {
                    return waiter;
                }
            }
        }
        return null;
    }

    /** The job once it is in {@code state}, or as it is when {@code timeout} ends. */
    public CompletionStage<Job> waitFor(String type, String id, JobState state, Duration timeout) {
        CompletableFuture<Job> result = new CompletableFuture<>();
        Runnable answerNow = () -> executor.execute(() -> {
            try {
                Job now = observe(type, id, false).job();
                if (now == null) {
                    throw new JobNotFoundException(type, id);
                }
                result.complete(now);
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        var deadline = timer.schedule(answerNow, timeout.toNanos(), TimeUnit.NANOSECONDS);
        // A shutdown answers it as its timeout would, so that it does not hold the server up.
        waitingFor.add(answerNow);
        Futures.whenDone(result, (job, failure) -> {
            deadline.cancel(false);
            waitingFor.remove(answerNow);
        });
        if (closed) {
            answerNow.run();
        }
        WatchBackoff backoff = WatchBackoff.quiet("waitFor " + type + "/" + id);
        // The one watch the wait holds now: let go of when it ends. One slot, not a callback per
        // change seen, which kept a copy of the job for every change until the wait ended.
        AtomicReference<CompletableFuture<Void>> watching = new AtomicReference<>();
        Futures.whenDone(result, (job, failure) -> cancel(watching.get()));
        executor.execute(() -> watchUntil(type, id, state, result, watching, backoff));
        return result;
    }

    /** A job as it is now (null if there is none), and a watch that fires when it next changes or goes. */
    private record Observation(Job job, CompletableFuture<Void> change) {
    }

    /** The job as it is now, with a watch on its record if {@code watch}; else a watch that never fires. */
    private Observation observe(String type, String id, boolean watch) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        return runner.run(tx -> {
            JobRecord r = JobRecord.load(tx, type, id);
            return new Observation(r == null ? null : r.view(),
                    watch ? tx.watch(JobKeys.job(type, id)) : new CompletableFuture<>());
        });
    }

    private static void cancel(CompletableFuture<Void> watch) {
        if (watch != null) {
            watch.cancel(false);
        }
    }

    private void watchUntil(String type, String id, JobState state, CompletableFuture<Job> result,
            AtomicReference<CompletableFuture<Void>> watching, WatchBackoff backoff) {
        if (result.isDone()) {
            return;
        }
        try {
            Observation seen = observe(type, id, true);
            if (seen.job() == null) {
                seen.change().cancel(false);
                result.completeExceptionally(new JobNotFoundException(type, id));
            } else if (seen.job().state() == state || closed) {
                seen.change().cancel(false);
                result.complete(seen.job());
            } else {
                watching.set(seen.change());
                if (result.isDone()) {
                    seen.change().cancel(false); // ended before the slot held this watch
                    return;
                }
                afterChange(seen.change(), backoff, () -> watchUntil(type, id, state, result, watching, backoff));
            }
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    /**
     * Runs {@code next} on the executor once {@code change} fires; if the watch failed instead, after
     * a {@link WatchBackoff} wait. A failed watch may have missed the change, so {@code next} must
     * look again; but a watch that fails as soon as it is armed must not make it observe in a loop.
     * Nothing runs after a cancel: whoever cancelled is done waiting.
     */
    private void afterChange(CompletableFuture<Void> change, WatchBackoff backoff, Runnable next) {
        backoff.follow(change, () -> executor.execute(next),
                (wait, why) -> timer.schedule(() -> executor.execute(next), wait.toNanos(), TimeUnit.NANOSECONDS));
    }

    /**
     * Delivers the job's current state, then each change (coalesced: a burst of changes arrives as
     * the latest state), then its removal, to {@code listener} on a background thread.
     *
     * @throws JobNotFoundException if there is no such job
     */
    public Subscription subscribe(String type, String id, Consumer<JobEvent> listener) {
        Observation first = observe(type, id, true);
        if (first.job() == null) {
            first.change().cancel(false);
            throw new JobNotFoundException(type, id);
        }
        Subscription subscription = new Subscription(type, id, listener);
        subscriptions.add(subscription);
        Futures.whenDone(subscription.ended, (ignored, failure) -> subscriptions.remove(subscription));
        subscription.deliver(first);
        if (closed) {
            subscription.cancel();
        }
        return subscription;
    }

    /** A live subscription to one job; {@link #cancel()} ends it. */
    public final class Subscription {
        private final String type;
        private final String id;
        private final Consumer<JobEvent> listener;
        private final CompletableFuture<Void> ended = new CompletableFuture<>();
        private final WatchBackoff backoff;
        private volatile CompletableFuture<Void> change;
        private long revision = -1;

        private Subscription(String type, String id, Consumer<JobEvent> listener) {
            this.type = type;
            this.id = id;
            this.listener = Objects.requireNonNull(listener);
            this.backoff = WatchBackoff.quiet("events of " + type + "/" + id);
        }

        private synchronized void deliver(Observation seen) {
            if (ended.isDone()) {
                seen.change().cancel(false);
                return;
            }
            if (seen.job() == null) {
                seen.change().cancel(false);
                listener.accept(JobEvent.removal());
                ended.complete(null);
                return;
            }
            if (seen.job().revision() != revision) {
                revision = seen.job().revision();
                listener.accept(JobEvent.state(seen.job()));
            }
            change = seen.change();
            afterChange(change, backoff, this::next);
        }

        /** Looks again after a change, or after a failed watch; if looking fails too, the subscription ends. */
        private void next() {
            if (ended.isDone()) {
                return;
            }
            try {
                deliver(observe(type, id, true));
            } catch (RuntimeException e) {
                ended.completeExceptionally(e);
            }
        }

        /** Completes when the subscription ends: removal, cancel, shutdown or a store failure. */
        public CompletionStage<Void> ended() {
            return ended;
        }

        public void cancel() {
            ended.complete(null);
            CompletableFuture<Void> current = change;
            if (current != null) {
                current.cancel(false);
            }
        }
    }

    /** Event subscriptions open now. */
    public int subscriptions() {
        return subscriptions.size();
    }

    /** Number of processors blocked in accept right now. */
    public int waitingAccepts() {
        return dispatchers.values().stream().mapToInt(AcceptDispatcher::waiting).sum();
    }

    /** Shutdown: every blocked accept answers with no job, every waitFor with the job as it is, every subscription ends. */
    @Override
    public void close() {
        closed = true;
        dispatchers.values().forEach(AcceptDispatcher::close);
        waitingFor.forEach(Runnable::run);
        subscriptions.forEach(Subscription::cancel);
    }
}
