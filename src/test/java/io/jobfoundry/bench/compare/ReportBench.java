package io.jobfoundry.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.jobfoundry.bench.measure.Machine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns a comparison's {@code results.jsonl} into {@code results.md} (the table),
 * {@code results.json} (every figure, with the machine, versions and settings) and
 * {@code results.png} (the chart), in the same folder.
 * <pre>Bench report target/bench/compare</pre>
 */
public final class ReportBench {

    private ReportBench() {
    }

    public static void main(String[] args) throws Exception {
        Path folder = Path.of(args.length > 0 ? args[0] : "target/bench/compare");
        Results results = Results.read(folder.resolve("results.jsonl"));
        Machine machine = Machine.describe();
        String markdown = MarkdownReport.render(results, machine);
        Files.writeString(folder.resolve("results.md"), markdown);
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("workload", results.workload());
        all.put("machine", machine);
        all.put("results", results.runs());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(folder.resolve("results.json").toFile(), all);
        System.setProperty("java.awt.headless", "true");
        ComparisonChart.write(results, results.workload() + "; " + machine.cores() + " cores shared by clients and server",
                folder.resolve("results.png"));
        System.out.println(markdown);
        System.out.println("written: " + folder.resolve("results.md") + ", results.json, results.png");
    }
}
