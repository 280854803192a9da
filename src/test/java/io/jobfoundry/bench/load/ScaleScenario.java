package io.jobfoundry.bench.load;

import io.jobfoundry.bench.client.Accepted;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.measure.Latency;
import io.jobfoundry.bench.measure.Millis;
import io.jobfoundry.bench.measure.Percentiles;
import java.util.List;

/**
 * Scenario 6, scale: the latency of one accept with 1k, 100k, (1M) jobs pending, over REST. One
 * worker accepts ({@code max=1}, no wait), finishes, and puts a new job into the same group, so
 * the queue keeps its size while it is sampled. Accept reads a bounded number of keys, so the
 * latency should not grow with the queue; the ratio to the smallest queue says whether it does.
 * Filling goes through the API too (the in-process {@code engine scale} fills faster).
 */
final class ScaleScenario {

    private static final int WARM_UP = 300;

    private final LoadTarget target;
    private final int[] counts;
    private final int groups;
    private final int samples;

    ScaleScenario(LoadTarget target, int[] counts, int groups, int samples) {
        this.target = target;
        this.counts = counts;
        this.groups = groups;
        this.samples = samples;
    }

    void run() throws Exception {
        System.out.printf("scale: accept latency (max=1, one worker) by jobs pending, over %d groups, %d samples each%n",
                groups, samples);
        System.out.printf("%10s %12s %10s %10s %10s %8s%n", "pending", "fill jobs/s", "p50", "p99", "max", "p50 ×");
        double first = Double.NaN;
        for (int count : counts) {
            double p50 = measure(count);
            if (Double.isNaN(first)) {
                first = p50;
            }
            System.out.printf("%8.2f%n", p50 / first);
        }
    }

    private double measure(int pending) throws Exception {
        String type = LoadTarget.freshType("scale");
        double fillRate = target.fill(type, pending, i -> "{\"group\":\"g" + (i % groups) + "\"}");
        Latency accept = new Latency();
        try (JobfoundryClient client = target.connect()) {
            for (int i = -WARM_UP; i < samples; i++) {
                long start = System.nanoTime();
                List<Accepted> jobs = client.accept(type, 1, 0, "scale");
                long took = System.nanoTime() - start;
                if (jobs.isEmpty()) {
                    throw new IllegalStateException("the queue of " + pending + " ran empty");
                }
                Accepted job = jobs.get(0);
                client.finish(job);
                client.create(type, "{\"group\":\"" + job.group() + "\"}");
                if (i >= 0) {
                    accept.recordNanos(took);
                }
            }
        }
        Percentiles p = accept.percentiles();
        System.out.printf("%10d %12.0f %10s %10s %10s ", pending, fillRate, Millis.format(p.p50()), Millis.format(p.p99()),
                Millis.format(p.max()));
        return p.p50();
    }
}
