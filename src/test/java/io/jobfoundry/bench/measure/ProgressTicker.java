package io.jobfoundry.bench.measure;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Prints the rate of a growing count every interval (burn-down's "every 2 s"), from its own
 * daemon thread, until closed. A steady line says the store keeps its pace as the queue empties;
 * a sagging one says where it does not.
 */
public final class ProgressTicker implements AutoCloseable {

    private final Thread thread;
    private volatile boolean running = true;

    public ProgressTicker(String label, LongSupplier count, long intervalMillis) {
        thread = new Thread(() -> {
            long start = System.nanoTime();
            long last = count.getAsLong();
            long lastAt = start;
            while (running) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(intervalMillis));
                if (!running) {
                    return;
                }
                long now = System.nanoTime();
                long current = count.getAsLong();
                System.out.printf("  %s %6.1f s: %8.0f jobs/s  (%d done)%n", label, (now - start) / 1e9,
                        (current - last) / ((now - lastAt) / 1e9), current);
                last = current;
                lastAt = now;
            }
        }, "progress-" + label);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
    }
}
