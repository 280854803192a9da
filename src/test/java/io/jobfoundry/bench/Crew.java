package io.jobfoundry.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fixed number of threads running the same task (producers, workers), each with its own
 * index. The first failure is kept and rethrown by {@link #await}, so a broken run stops loudly
 * instead of reporting numbers that are missing its failed part.
 */
public final class Crew implements AutoCloseable {

    /** A crew member's body; {@code index} is 0..size-1. */
    @FunctionalInterface
    public interface Task {
        void run(int index) throws Exception;
    }

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private Crew(String name, int size, Task task) {
        for (int i = 0; i < size; i++) {
            int index = i;
            Thread thread = new Thread(() -> {
                try {
                    task.run(index);
                } catch (InterruptedException e) {
                    // closed: the run is over
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, name + "-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    public static Crew start(String name, int size, Task task) {
        return new Crew(name, size, task);
    }

    /**
     * Waits until every member has returned or {@code limit} has passed; answers whether all
     * returned. Rethrows the first member's failure.
     */
    public boolean await(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        for (Thread thread : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
        Throwable failed = failure.get();
        if (failed != null) {
            throw new IllegalStateException("a " + threads.get(0).getName().replaceAll("-\\d+$", "") + " failed: " + failed,
                    failed);
        }
        return threads.stream().noneMatch(Thread::isAlive);
    }

    /** Interrupts members still running; their blocking calls end with the connections they hold. */
    @Override
    public void close() {
        threads.forEach(Thread::interrupt);
    }
}
