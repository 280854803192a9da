package io.jobfoundry;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads of Jobfoundry's own pools: named for thread dumps, daemons so they never hold the JVM up. */
public final class DaemonThreads {

    private DaemonThreads() {
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
