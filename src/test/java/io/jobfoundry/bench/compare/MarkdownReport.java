package io.jobfoundry.bench.compare;

import io.jobfoundry.bench.measure.Machine;
import io.jobfoundry.bench.measure.Millis;

/**
 * The comparison as a Markdown table, each figure beside the settings it depends on, and a ratio
 * column for each Jobfoundry durability mode: above 1 Jobfoundry completed more jobs per second
 * than that system, below 1 fewer.
 */
final class MarkdownReport {

    private MarkdownReport() {
    }

    static String render(Results results, Machine machine) {
        StringBuilder md = new StringBuilder();
        md.append("Create → fetch → complete, ").append(results.workload())
                .append(", producers and workers running at once; jobs/s from the first create to the last complete.\n\n");
        md.append("| System | Durability | Jobs/s | p50 | p99 |");
        for (RunResult jf : results.jobfoundry()) {
            md.append(' ').append(jf.label()).append(" ÷ this |");
        }
        md.append(" Store txn/job | Jobs/fetch | CPU ms/job client / server |\n|---|---|---:|---:|---:|");
        md.append("---:|".repeat(results.jobfoundry().size())).append("---:|---:|---:|\n");
        for (RunResult run : results.runs()) {
            md.append("| ").append(run.label()).append(" | ").append(run.durability()).append(" | ")
                    .append(String.format("%,.0f", run.jobsPerSecond())).append(run.complete() ? "" : " (incomplete)")
                    .append(" | ").append(Millis.format(run.receiptLatency().p50())).append(" | ")
                    .append(Millis.format(run.receiptLatency().p99())).append(" |");
            for (RunResult jf : results.jobfoundry()) {
                md.append(String.format(" %.2f |", jf.jobsPerSecond() / run.jobsPerSecond()));
            }
            md.append(' ').append(run.storeTransactionsPerJob() == null ? "n/a"
                    : String.format("%.2f", run.storeTransactionsPerJob())).append(" | ")
                    .append(run.jobsPerFetch() == null ? "n/a" : String.format("%.1f", run.jobsPerFetch())).append(" | ")
                    .append(String.format("%.3f", run.clientCpuMsPerJob())).append(" / ")
                    .append(run.serverCpuMsPerJob() == null ? "n/a" : String.format("%.3f", run.serverCpuMsPerJob()))
                    .append(run.serverJitCpuMsPerJob() == null || run.serverJitCpuMsPerJob() == 0 ? ""
                            : String.format(" (JIT %.3f)", run.serverJitCpuMsPerJob()))
                    .append(" |\n");
        }
        md.append("\np50/p99: creation → receipt by a worker. Store txn/job: Jobfoundry's committed store transactions"
                + " per job from `/q/metrics` (n/a: the service exposes no such counter). Jobs/fetch: jobs per worker"
                + " fetch that brought any, as the Java clients and the client libraries' workers count them (n/a: the Node"
                + " libraries fetch inside). JIT: the part of the server's CPU that its JVM's JIT compiler"
                + " threads took during the measured run.\n\n");
        md.append("| System | Version | Client | Jobs done | Seconds | Load before → after |\n|---|---|---|---:|---:|---|\n");
        for (RunResult run : results.runs()) {
            md.append(String.format("| %s | %s | %s | %,d of %,d | %.2f | %s → %s |%n", run.label(), run.version(),
                    run.client(), run.completed(), run.jobs(), run.seconds(), run.loadBefore(), run.loadAfter()));
        }
        md.append(String.format("%nMachine: %s, %d cores (shared by the clients and the server), %s, %s, %s.%n",
                machine.cpu(), machine.cores(), machine.memory(), machine.kernel(), machine.java()));
        return md.toString();
    }
}
