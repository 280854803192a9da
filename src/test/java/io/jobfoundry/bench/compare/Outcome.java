package io.jobfoundry.bench.compare;

import io.jobfoundry.bench.measure.Latency;

/**
 * What one run of the workload measured. Times are {@code CLOCK_MONOTONIC} nanoseconds — Java's
 * {@code System.nanoTime()} and Node's {@code process.hrtime.bigint()} read the same clock on
 * Linux, so producer and worker processes can be told apart and still compared.
 *
 * @param created jobs the producers created
 * @param completed jobs the workers completed
 * @param startNanos when the producers were released, all connections open and workers waiting
 * @param lastCompleteNanos when the last job was completed
 * @param receipt creation → receipt by a worker, per job
 * @param clientCpuSeconds CPU used by the client processes (producers and workers) in the run
 * @param fetches the workers' fetches that brought at least one job; 0 where the client does not
 *     see them (the Node drivers: BullMQ and graphile-worker fetch inside their libraries)
 */
public record Outcome(long created, long completed, long startNanos, long lastCompleteNanos, Latency receipt,
        double clientCpuSeconds, long fetches) {

    public double seconds() {
        return (lastCompleteNanos - startNanos) / 1e9;
    }

    /** End to end: from the first create to the last complete, producers and workers running together. */
    public double jobsPerSecond() {
        return completed / seconds();
    }

    /** Jobs per fetch that brought any: how full the bulk workload's fetches were; null where unknown. */
    public Double jobsPerFetch() {
        return fetches == 0 ? null : (double) completed / fetches;
    }
}
