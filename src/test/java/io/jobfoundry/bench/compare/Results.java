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
 * The runs of one comparison, read from {@code results.jsonl}: the last run of each label in each
 * workload, in the order the systems first ran. The Jobfoundry runs are the numerators of every
 * ratio; ratios are only taken within one workload ({@link #of}).
 */
record Results(List<RunResult> runs) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Results read(Path jsonl) throws IOException {
        Map<String, RunResult> byWorkloadAndLabel = new LinkedHashMap<>();
        for (String line : Files.readAllLines(jsonl)) {
            if (!line.isBlank()) {
                RunResult run = JSON.readValue(line, RunResult.class);
                String key = run.workloadOrSingle() + "\n" + run.label();
                // A rerun replaces the earlier one but keeps its place: LinkedHashMap keeps a key's
                // first insertion order when it is put again (removing it first would not).
                byWorkloadAndLabel.put(key, run);
            }
        }
        if (byWorkloadAndLabel.isEmpty()) {
            throw new IllegalArgumentException(jsonl + " holds no runs");
        }
        return new Results(new ArrayList<>(byWorkloadAndLabel.values()));
    }

    /** The workloads that ran ({@code single}, {@code bulk}), in the order they first appear. */
    List<String> workloads() {
        return runs.stream().map(RunResult::workloadOrSingle).distinct().toList();
    }

    /** The runs of one workload. */
    Results of(String workload) {
        return new Results(runs.stream().filter(r -> r.workloadOrSingle().equals(workload)).toList());
    }

    /** The raw-HTTP Jobfoundry runs, the ratios' numerators; the client libraries' rows are compared with them. */
    List<RunResult> jobfoundry() {
        return runs.stream().filter(r -> r.system().equals("jobfoundry")).toList();
    }

    /**
     * The workload, if every run had the same one ({@code 20,000 no-op jobs, 4 producers, 16
     * workers, one job per call}).
     */
    String workload() {
        List<String> shapes = runs.stream().map(Results::describe).distinct().toList();
        return shapes.size() == 1 ? shapes.get(0) : "mixed workloads: " + String.join("; ", shapes);
    }

    private static String describe(RunResult r) {
        String calls = r.workloadOrSingle().equals(Workload.Shape.SINGLE.id()) ? "one job per call"
                : String.format("bulk: creates of %d, fetches of up to %d completed together", r.createBatch(), r.fetchMax());
        return String.format("%,d no-op jobs, %d producers, %d workers, %s", r.jobs(), r.producers(), r.workers(), calls);
    }
}
