package io.jobfoundry;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads of Jobfoundry's own pools: named for thread dumps, daemons so they never hold the JVM up. */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /**
     * A timer of one thread, {@code name-1}, for timeouts that are nearly always cancelled long
     * before they fall due (a blocking accept's wait, a {@code waitFor}): a cancelled task leaves
     * the queue at once, instead of staying queued, and waking the thread, until it falls due.
     */
    public static ScheduledThreadPoolExecutor timeouts(String name) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, named(name));
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /** Threads named {@code name-1}, {@code name-2}, ... */
    public static ThreadFactory named(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
