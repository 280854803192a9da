package io.jobfoundry.jobs;

import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Engines on one store as replicas of the service run them, each with blocked accepts of its own
 * (its {@link JobWaits}) so that hand-offs and accept rounds race across them: the set-up of the
 * concurrency contracts. Thread {@code t} of a test uses replica {@code t % count}.
 */
final class Replicas {

    private final List<JobEngine> engines = new ArrayList<>();
    private final List<JobWaits> waits = new ArrayList<>();
    private final ScheduledExecutorService waitsPool = Executors.newScheduledThreadPool(2);

    Replicas(KvStore store, int count, EngineOptions options) {
        for (int r = 0; r < count; r++) {
            JobEngine unwired = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), Clock.systemUTC(), options);
            JobWaits replicaWaits = new JobWaits(unwired.accepting(), waitsPool, waitsPool);
            engines.add(unwired.withWaiters(replicaWaits));
            waits.add(replicaWaits);
        }
    }

    JobEngine engine(int thread) {
        return engines.get(thread % engines.size());
    }

    JobWaits waits(int thread) {
        return waits.get(thread % waits.size());
    }

    /**
     * Ends every blocked accept and answers whether the waits' pool then ran dry within a minute: a
     * job handed to an accept whose wait had just ended goes back to the queue on that pool.
     */
    boolean stop() throws InterruptedException {
        waits.forEach(JobWaits::close);
        waitsPool.shutdown();
        return waitsPool.awaitTermination(1, TimeUnit.MINUTES);
    }

    /** After a failure: stops the waits' pool without waiting. */
    void abort() {
        waitsPool.shutdownNow();
    }
}
