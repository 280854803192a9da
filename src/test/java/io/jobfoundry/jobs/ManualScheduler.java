package io.jobfoundry.jobs;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ScheduledExecutorService} whose time is a {@link MutableClock}: a task runs, on the
 * thread that calls {@link #advance} or {@link #runDue}, once the clock has reached its time. Tests
 * drive timers with it instead of sleeping. Tasks may be scheduled from any thread (a store's
 * callbacks); {@link #awaitTask} waits, in real time and bounded, for one to be scheduled.
 */
public final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

    private final MutableClock clock;
    private final PriorityQueue<Task<?>> queue =
            new PriorityQueue<>(Comparator.<Task<?>, Instant>comparing(task -> task.at)
                    .thenComparingLong(task -> task.order));
    private long scheduled;
    private boolean shutdown;

    public ManualScheduler(MutableClock clock) {
        this.clock = clock;
    }

    /** Moves the clock on by {@code by} and runs what fell due. */
    public void advance(Duration by) {
        clock.advance(by);
        runDue();
    }

    /** Runs every task whose time has come, in time order, including those they schedule for now. */
    public void runDue() {
        for (Task<?> task = nextDue(); task != null; task = nextDue()) {
            task.run();
        }
    }

    private synchronized Task<?> nextDue() {
        Task<?> head = queue.peek();
        if (head == null || head.at.isAfter(clock.instant())) {
            return null;
        }
        return queue.poll();
    }

    /** The delays of the tasks still to run, soonest first; cancelled ones are not counted. */
    public synchronized List<Duration> pending() {
        List<Task<?>> live = new ArrayList<>(queue);
        live.sort(queue.comparator());
        List<Duration> delays = new ArrayList<>();
        for (Task<?> task : live) {
            if (!task.isCancelled()) {
                delays.add(Duration.between(clock.instant(), task.at));
            }
        }
        return delays;
    }

    /**
     * Waits until a task due within {@code within} is pending and answers the delay of the soonest;
     * empty if none was scheduled within {@code patience} of real time.
     */
    public synchronized Optional<Duration> awaitTask(Duration within, Duration patience) throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (pending().isEmpty() || pending().get(0).compareTo(within) > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return Optional.empty();
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return Optional.of(pending().get(0));
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return schedule(Executors.callable(command), delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return enqueue(new Task<>(callable, clock.instant().plusNanos(unit.toNanos(delay)), null));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return enqueue(new Task<>(Executors.callable(command), clock.instant().plusNanos(unit.toNanos(initialDelay)),
                Duration.ofNanos(unit.toNanos(period))));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        // Tasks take no time on this clock, so a fixed delay and a fixed rate are the same.
        return scheduleAtFixedRate(command, initialDelay, delay, unit);
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    private synchronized <V> Task<V> enqueue(Task<V> task) {
        if (shutdown) {
            throw new java.util.concurrent.RejectedExecutionException("the scheduler is shut down");
        }
        task.order = scheduled++;
        queue.add(task);
        notifyAll();
        return task;
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> left = new ArrayList<>(queue);
        queue.clear();
        return left;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isTerminated();
    }

    private final class Task<V> extends FutureTask<V> implements ScheduledFuture<V> {
        private Instant at;
        private final Duration period;
        private long order;

        Task(Callable<V> callable, Instant at, Duration period) {
            super(callable);
            this.at = at;
            this.period = period;
        }

        @Override
        public void run() {
            if (period == null) {
                super.run();
            } else if (runAndReset()) {
                at = at.plus(period);
                enqueue(this);
            }
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(Duration.between(clock.instant(), at));
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }
    }
}
