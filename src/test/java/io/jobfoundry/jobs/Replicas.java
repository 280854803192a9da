package io.jobfoundry.jobs;

import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Engines on one store as replicas of the service run them, each with blocked accepts of its own
 * (its {@link JobWaits}) so that hand-offs and accept rounds race across them: the set-up of the
 * concurrency contracts. Thread {@code t} of a test uses replica {@code t % count}.
 */
final class Replicas {

    private final List<JobEngine> engines = new ArrayList<>();
    private final List<JobWaits> waits = new ArrayList<>();

    Replicas(KvStore store, int count, EngineOptions options, ScheduledExecutorService waitsPool) {
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

    /** Ends every blocked accept. */
    void closeWaits() {
        waits.forEach(JobWaits::close);
    }
}
