package io.jobfoundry.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobfoundry.bench.measure.Machine;
import io.jobfoundry.bench.measure.Percentiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a results.jsonl is read: runs grouped by workload, reruns replacing, old lines counted as single. */
class ResultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void keepsEachWorkloadApartAndReadsLinesWrittenBeforeTheField(@TempDir Path dir) throws Exception {
        ObjectNode old = JSON.valueToTree(run("beanstalkd", "single", 1, 1, 14_000));
        old.remove(List.of("workload", "createBatch", "fetchMax", "jobsPerFetch"));
        String lines = String.join("\n", old.toString(),
                JSON.writeValueAsString(run("beanstalkd", "bulk", 100, 16, 9_000)),
                JSON.writeValueAsString(run("Jobfoundry (os)", "bulk", 100, 16, 2_000)),
                JSON.writeValueAsString(run("beanstalkd", "bulk", 100, 16, 10_000)));
        Path jsonl = dir.resolve("results.jsonl");
        Files.writeString(jsonl, lines + "\n");

        Results results = Results.read(jsonl);

        assertEquals(List.of("single", "bulk"), results.workloads());
        assertEquals(14_000, results.of("single").runs().get(0).jobsPerSecond());
        // the rerun of beanstalkd replaced its bulk figure and kept its place, ahead of Jobfoundry
        assertEquals(List.of(10_000.0, 2_000.0), results.of("bulk").runs().stream().map(RunResult::jobsPerSecond).toList());
        assertEquals("20,000 no-op jobs, 4 producers, 16 workers, bulk: creates of 100, fetches of up to 16 completed together",
                results.of("bulk").workload());
    }

    @Test
    void theTableShowsTheJitsPartOfTheServersCpuWhereItHasOne(@TempDir Path dir) throws Exception {
        Path jsonl = dir.resolve("results.jsonl");
        Files.writeString(jsonl, JSON.writeValueAsString(run("Jobfoundry (os)", "bulk", 100, 16, 9_000, 0.05)) + "\n"
                + JSON.writeValueAsString(run("beanstalkd", "bulk", 100, 16, 10_000, 0.0)) + "\n");

        String table = MarkdownReport.render(Results.read(jsonl).of("bulk"), Machine.describe());

        assertTrue(table.contains("| 0.100 / 0.200 (JIT 0.050) |\n"), table);
        assertTrue(table.contains("| 0.100 / 0.200 |\n"), table);
    }

    private static RunResult run(String label, String workload, int createBatch, int fetchMax, double jobsPerSecond) {
        return run(label, workload, createBatch, fetchMax, jobsPerSecond, null);
    }

    private static RunResult run(String label, String workload, int createBatch, int fetchMax, double jobsPerSecond,
            Double jitMsPerJob) {
        String system = label.startsWith("Jobfoundry") ? "jobfoundry" : label;
        return new RunResult(system, label, workload, createBatch, fetchMax, "v", "d", "c", 20_000, 20_000, 20_000, 4, 16,
                true, 20_000 / jobsPerSecond, jobsPerSecond, new Percentiles(20_000, 1, 2, 3, 4), null,
                fetchMax == 1 ? 1.0 : 8.0, 0.1, 0.2, jitMsPerJob, 1, "1 1 1", "1 1 1", "2026-11-27T00:00:00Z");
    }
}
