package io.jobfoundry.bench.compare;

import io.jobfoundry.bench.measure.Percentiles;

/**
 * One system's measured run, as one line of {@code results.jsonl}: the figures, and beside them
 * what they depend on — the version, the durability setting, the client, the load on the machine.
 *
 * @param system {@code jobfoundry}, {@code beanstalkd}, {@code bullmq} or {@code graphile-worker}
 * @param label the name in tables and charts, with the durability mode where a system runs in several
 * @param complete whether every job was completed within the run's time bound
 * @param receiptLatency creation → receipt by a worker, in milliseconds
 * @param storeTransactionsPerJob Jobfoundry's committed store transactions per job; null where unknown
 * @param serverCpuMsPerJob the server's CPU per job (all its processes); null where not measured
 * @param loadBefore {@code /proc/loadavg} when the run started
 */
public record RunResult(String system, String label, String version, String durability, String client, int jobs,
        long created, long completed, int producers, int workers, boolean complete, double seconds, double jobsPerSecond,
        Percentiles receiptLatency, Double storeTransactionsPerJob, double clientCpuMsPerJob, Double serverCpuMsPerJob,
        String loadBefore, String loadAfter, String finishedAt) {
}
