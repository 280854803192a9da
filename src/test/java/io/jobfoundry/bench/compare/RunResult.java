package io.jobfoundry.bench.compare;

import io.jobfoundry.bench.measure.Percentiles;

/**
 * One system's measured run, as one line of {@code results.jsonl}: the figures, and beside them
 * what they depend on — the version, the durability setting, the client, the load on the machine.
 *
 * @param system {@code jobfoundry} (raw HTTP, the bench's client), {@code jobfoundry-java} or
 *     {@code jobfoundry-python} (through a client library), {@code beanstalkd}, {@code bullmq} or
 *     {@code graphile-worker}
 * @param label the name in tables and charts, with the durability mode where a system runs in several
 * @param workload {@code single} or {@code bulk} (see {@link Workload.Shape}); null in lines written before it was recorded
 * @param createBatch jobs per create call; 0 where not recorded
 * @param fetchMax jobs a worker fetches at most at once; 0 where not recorded
 * @param complete whether every job was completed within the run's time bound
 * @param receiptLatency creation → receipt by a worker, in milliseconds
 * @param storeTransactionsPerJob Jobfoundry's committed store transactions per job; null where unknown
 * @param jobsPerFetch jobs per worker fetch that brought any (Java clients only); null where unknown
 * @param serverCpuMsPerJob the server's CPU per job (all its processes); null where not measured
 * @param serverJitCpuMsPerJob the part of it the server's JIT compiler threads took (HotSpot's; zero
 *     for servers that have none); null where not measured
 * @param warmupRounds warm-up runs before the measured one (see {@code CompareBench}); 0 where not recorded
 * @param loadBefore {@code /proc/loadavg} when the run started
 */
public record RunResult(String system, String label, String workload, int createBatch, int fetchMax, String version,
        String durability, String client, int jobs, long created, long completed, int producers, int workers,
        boolean complete, double seconds, double jobsPerSecond, Percentiles receiptLatency,
        Double storeTransactionsPerJob, Double jobsPerFetch, double clientCpuMsPerJob, Double serverCpuMsPerJob,
        Double serverJitCpuMsPerJob, int warmupRounds, String loadBefore, String loadAfter, String finishedAt) {

    /** The workload, {@code single} for lines from before the bulk workload existed (they all ran single). */
    public String workloadOrSingle() {
        return workload == null ? Workload.Shape.SINGLE.id() : workload;
    }
}
