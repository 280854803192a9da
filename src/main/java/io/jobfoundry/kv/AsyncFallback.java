package io.jobfoundry.kv;

import io.jobfoundry.DaemonThreads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Threads for stores whose transactions can only run by blocking ({@link KvStore#runOnceAsync}'s
 * default; FoundationDB's reads in a body wait for their futures). Bounded, like a worker pool:
 * beyond {@link #THREADS} transactions in flight, the rest queue instead of adding threads.
 */
final class AsyncFallback {

    static final int THREADS = 64;

    static final ExecutorService EXECUTOR =
            Executors.newFixedThreadPool(THREADS, DaemonThreads.named("jobfoundry-store-async"));

    private AsyncFallback() {
    }
}
