package io.jobfoundry.bench.load;

import io.jobfoundry.bench.Crew;
import io.jobfoundry.bench.client.Accepted;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.measure.Latency;
import io.jobfoundry.bench.measure.Millis;
import io.jobfoundry.bench.measure.Percentiles;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 4, noisy neighbour: 90% of the queued jobs belong to one group, the rest are spread
 * over 20 small groups, interleaved in creation order; then the workers drain the queue. The wait
 * of a job is from the start of the drain to its receipt. Under FIFO a small group's p95 wait
 * would be about 95% of the whole drain; with API.md's round-robin across groups the small
 * groups are served alongside the big one and finish early.
 */
final class NoisyNeighbourScenario {

    private static final String BIG = "big";

    private final LoadTarget target;
    private final int jobs;
    private final int smallGroups;

    NoisyNeighbourScenario(LoadTarget target, int jobs, int smallGroups) {
        this.target = target;
        this.jobs = jobs;
        this.smallGroups = smallGroups;
    }

    /** Every tenth job goes to a small group, in turn; the other nine to the big one. */
    private String groupOf(int i) {
        return i % 10 == 0 ? "small-" + (i / 10 % smallGroups) : BIG;
    }

    /** The big group first, then the small ones in numeric order. */
    private static Map<String, Latency> sorted(Map<String, Latency> waits) {
        Map<String, Latency> sorted = new TreeMap<>(Comparator.comparing(String::length).thenComparing(Comparator.naturalOrder()));
        sorted.putAll(waits);
        return sorted;
    }

    void run() throws Exception {
        String type = LoadTarget.freshType("noisy");
        System.out.printf("noisy neighbour: %d jobs, 90%% in group '%s', 10%% over %d small groups; %d workers drain them%n",
                jobs, BIG, smallGroups, target.workers);
        double fillRate = target.fill(type, jobs, i -> "{\"group\":\"" + groupOf(i) + "\"}");
        System.out.printf("  queued in at %.0f jobs/s%n", fillRate);
        Map<String, Latency> waits = new ConcurrentHashMap<>();
        AtomicInteger received = new AtomicInteger();
        AtomicLong lastReceipt = new AtomicLong();
        long start = System.nanoTime();
        try (Crew crew = Crew.start("worker", target.workers, w -> {
            try (JobfoundryClient client = target.connect()) {
                while (received.get() < jobs) {
                    for (Accepted job : client.accept(type, 1, 200, "w" + w)) {
                        long now = System.nanoTime();
                        waits.computeIfAbsent(job.group(), g -> new Latency()).recordNanos(now - start);
                        lastReceipt.accumulateAndGet(now, Math::max);
                        received.incrementAndGet();
                        client.finish(job);
                    }
                }
            }
        })) {
            crew.await(target.phaseLimit);
        }
        double drain = (lastReceipt.get() - start) / 1e6;
        System.out.printf("  drained %d jobs in %s; FIFO would make every group's p95 wait about %s%n", received.get(),
                Millis.format(drain), Millis.format(drain * 0.95));
        System.out.printf("  %-10s %6s %12s %12s%n", "group", "jobs", "wait p50", "wait p95");
        for (Map.Entry<String, Latency> group : sorted(waits).entrySet()) {
            Percentiles p = group.getValue().percentiles();
            System.out.printf("  %-10s %6d %12s %12s%n", group.getKey(), p.count(), Millis.format(p.p50()),
                    Millis.format(p.p95()));
        }
    }
}
