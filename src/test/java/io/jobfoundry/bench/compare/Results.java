package io.jobfoundry.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs of one comparison, read from {@code results.jsonl}: the last run of each label, in the
 * order the systems first ran. The Jobfoundry runs are the numerators of every ratio.
 */
record Results(List<RunResult> runs) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Results read(Path jsonl) throws IOException {
        Map<String, RunResult> byLabel = new LinkedHashMap<>();
        for (String line : Files.readAllLines(jsonl)) {
            if (!line.isBlank()) {
                RunResult run = JSON.readValue(line, RunResult.class);
                byLabel.remove(run.label()); // a rerun replaces the earlier one but keeps its place
                byLabel.put(run.label(), run);
            }
        }
        if (byLabel.isEmpty()) {
            throw new IllegalArgumentException(jsonl + " holds no runs");
        }
        return new Results(new ArrayList<>(byLabel.values()));
    }

    List<RunResult> jobfoundry() {
        return runs.stream().filter(r -> r.system().equals("jobfoundry")).toList();
    }

    /** The workload, if every run had the same one ({@code 20000 jobs, 4 producers, 16 workers}). */
    String workload() {
        List<String> shapes = runs.stream().map(r -> String.format("%,d no-op jobs, %d producers, %d workers", r.jobs(),
                r.producers(), r.workers())).distinct().toList();
        return shapes.size() == 1 ? shapes.get(0) : "mixed workloads: " + String.join("; ", shapes);
    }
}
