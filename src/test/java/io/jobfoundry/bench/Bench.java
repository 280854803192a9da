package io.jobfoundry.bench;

import io.jobfoundry.bench.compare.CompareBench;
import io.jobfoundry.bench.compare.ReportBench;
import io.jobfoundry.bench.load.LoadBench;
import java.util.Arrays;

/**
 * Entry point of the {@code bench} profile: {@code ./mvnw -B -q -Pbench test-compile exec:java
 * -Dexec.args="NAME [ARGS]"}. Benchmarks measure; they are never part of the test run.
 */
public final class Bench {

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        String name = args.length == 0 ? "" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (name) {
            case "kv" -> KvBench.main(rest);
            case "repeat" -> RepeatBench.main(rest);
            case "engine" -> EngineBench.main(rest);
            case "load" -> LoadBench.main(rest);
            case "compare" -> CompareBench.main(rest);
            case "report" -> ReportBench.main(rest);
            case "jmh" -> org.openjdk.jmh.Main.main(rest); // the microbenchmarks, e.g. jmh TokenCheckBenchmark
            default -> {
                System.err.println("usage: Bench kv [seconds] | repeat | engine scale|noisy"
                        + " | load SCENARIO [options] | compare SYSTEM [options] | report DIR | jmh [JMH options]");
                System.exit(2);
            }
        }
    }
}
