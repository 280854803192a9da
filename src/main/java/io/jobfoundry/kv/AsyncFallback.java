package io.jobfoundry.kv;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads for stores whose transactions can only run by blocking ({@link KvStore#runOnceAsync}'s
 * default; FoundationDB's reads in a body wait for their futures). Bounded, like a worker pool:
 * beyond {@link #THREADS} transactions in flight, the rest queue instead of adding threads.
 */
final class AsyncFallback {

    static final int THREADS = 64;

    static final ExecutorService EXECUTOR = Executors.newFixedThreadPool(THREADS, new ThreadFactory() {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable runnable) {
            Thread thread = new Thread(runnable, "jobfoundry-store-async-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    });

    private AsyncFallback() {
    }
}
