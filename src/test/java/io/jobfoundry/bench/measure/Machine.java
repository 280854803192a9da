package io.jobfoundry.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine the figures were measured on: they mean little without it, and ratios between
 * systems measured on the same machine in the same run are the only figures worth comparing.
 */
public record Machine(String cpu, int cores, String memory, String kernel, String java, String loadAverage) {

    public static Machine describe() {
        return new Machine(cpuModel(), Runtime.getRuntime().availableProcessors(), totalMemory(),
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"), currentLoad());
    }

    private static String cpuModel() {
        return lines("/proc/cpuinfo").stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
    }

    private static String totalMemory() {
        return lines("/proc/meminfo").stream().filter(l -> l.startsWith("MemTotal:"))
                .map(l -> String.format("%.1f GiB", Long.parseLong(l.replaceAll("\\D", "")) / 1024.0 / 1024.0))
                .findFirst().orElse("unknown");
    }

    /** The 1, 5 and 15 minute load averages from {@code /proc/loadavg}. */
    public static String currentLoad() {
        List<String> lines = lines("/proc/loadavg");
        if (lines.isEmpty()) {
            return "unknown";
        }
        String[] fields = lines.get(0).split(" ");
        return fields[0] + " " + fields[1] + " " + fields[2];
    }

    private static List<String> lines(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException e) {
            return List.of();
        }
    }
}
