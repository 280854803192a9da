package io.jobfoundry.kv;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads for stores that can only run a transaction by blocking ({@link KvStore#runOnceAsync}'s default). */
final class AsyncFallback {

    static final ExecutorService EXECUTOR = Executors.newCachedThreadPool(new java.util.concurrent.ThreadFactory() {
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
