package io.jobfoundry.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.jobfoundry.bench.measure.Machine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a comparison's {@code results.jsonl} into {@code results.md} (the table),
 * {@code results.json} (every figure, with the machine, versions and settings) and
 * {@code results.png} (the chart), in the same folder; a file holding runs of both workloads gets
 * a section and a chart ({@code results-single.png}, {@code results-bulk.png}) for each.
 * <pre>Bench report target/bench/compare</pre>
 */
public final class ReportBench {

    private ReportBench() {
    }

    public static void main(String[] args) throws Exception {
        Path folder = Path.of(args.length > 0 ? args[0] : "target/bench/compare");
        Results all = Results.read(folder.resolve("results.jsonl"));
        Machine machine = Machine.describe();
        System.setProperty("java.awt.headless", "true");
        List<String> workloads = all.workloads();
        StringBuilder markdown = new StringBuilder();
        Map<String, String> described = new LinkedHashMap<>();
        for (String workload : workloads) {
            Results results = all.of(workload);
            described.put(workload, results.workload());
            // compare.sh writes one workload per folder (results.png); a file holding both gets a
            // section and a chart for each, never ratios across them.
            String png = workloads.size() == 1 ? "results.png" : "results-" + workload + ".png";
            if (workloads.size() > 1) {
                markdown.append("### Workload `").append(workload).append("`\n\n![").append(workload).append("](")
                        .append(png).append(")\n\n");
            }
            markdown.append(MarkdownReport.render(results, machine)).append('\n');
            // The axis title has room for a line: the workload's name and size; the table has the rest.
            RunResult first = results.runs().get(0);
            ComparisonChart.write(results, String.format("workload %s: %,d jobs, %d producers, %d workers; %d cores shared",
                    workload, first.jobs(), first.producers(), first.workers(), machine.cores()), folder.resolve(png));
        }
        Files.writeString(folder.resolve("results.md"), markdown.toString());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("workloads", described);
        json.put("machine", machine);
        json.put("results", all.runs());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve("results.json").toFile(), json);
        System.out.println(markdown);
        System.out.println("written: " + folder.resolve("results.md") + ", results.json, "
                + (workloads.size() == 1 ? "results.png" : "results-{" + String.join(",", workloads) + "}.png"));
    }
}
