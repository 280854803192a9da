package io.jobfoundry.bench.load;

import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.client.StoreTransactions;
import io.jobfoundry.bench.measure.Latency;
import io.jobfoundry.bench.measure.Millis;
import io.jobfoundry.bench.measure.Percentiles;
import java.time.Duration;
import java.util.OptionalDouble;

/**
 * Scenario 1, enqueue: jobs created per second. API.md has no batch create, so "batches" are
 * measured the only way a client can send them — as concurrent single creates — at several
 * concurrencies, each a closed loop of {@code POST /v1/jobs/{type}} on its own connection for a
 * fixed time. How far the rate grows with concurrency shows how well the store batches commits.
 */
final class EnqueueScenario {

    private final LoadTarget target;
    private final int[] concurrencies;
    private final int seconds;

    EnqueueScenario(LoadTarget target, int[] concurrencies, int seconds) {
        this.target = target;
        this.concurrencies = concurrencies;
        this.seconds = seconds;
    }

    void run() throws Exception {
        System.out.printf("enqueue: concurrent single creates (no batch endpoint in API.md), %d s each%n", seconds);
        System.out.printf("%12s %10s %12s %12s %10s%n", "connections", "jobs/s", "create p50", "create p99", "txn/job");
        for (int connections : concurrencies) {
            measure(connections);
        }
    }

    private void measure(int connections) throws Exception {
        String type = LoadTarget.freshType("enqueue");
        Latency latency = new Latency();
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        try (JobfoundryClient probe = target.connect()) {
            StoreTransactions transactions = StoreTransactions.start(probe);
            long start = System.nanoTime();
            long created = target.createUntil(type, connections, end, latency);
            double elapsed = (System.nanoTime() - start) / 1e9;
            OptionalDouble perJob = transactions.perJob(created);
            Percentiles p = latency.percentiles();
            System.out.printf("%12d %10.0f %12s %12s %10s%n", connections, created / elapsed, Millis.format(p.p50()),
                    Millis.format(p.p99()), StoreTransactions.format(perJob));
        }
    }
}
