package io.jobfoundry.bench.load;

import io.jobfoundry.bench.Options;

/**
 * The load generator: drives a running Jobfoundry through its REST API, one keep-alive connection
 * per producer and per worker, and reports throughput, latency percentiles (HdrHistogram) and
 * the store's transactions per job (from {@code /q/metrics}, where the service has the counter).
 * <pre>
 * ./mvnw -B -q -Pbench test-compile exec:java -Dexec.args="load SCENARIO [--option value]..."
 *
 *   enqueue    [--concurrency 1,4,16,64] [--seconds 5]
 *   burndown   [--jobs 20000] [--max 1,10] [--warmup-jobs 20000]
 *   latency    [--rates 100,1000,5000] [--seconds 10] [--warmup 15]
 *   noisy      [--jobs 20000] [--small-groups 20]
 *   recovery   [--runs 5] [--activity-timeout 2] [--hold-ms 500]
 *   scale      [--counts 1000,100000] [--groups 10000] [--samples 2000]
 *   idle       [--types 3000] [--seconds 10] [--samples 10] [--server-pid PID]
 *   client     [--connections 16] [--seconds 5] [--server-pid PID]
 *   push       --push-port P [--jobs 5000] [--rate 200] [--seconds 10] [--push-concurrency 16]
 *   all        every scenario above with its defaults
 *
 * common: [--url http://127.0.0.1:8080] [--client raw|jdk] [--producers 8] [--workers 16]
 *         [--timeout 120]  (seconds; bound of each phase)
 * </pre>
 */
public final class LoadBench {

    private static final String[] OPTIONS = {"url", "client", "producers", "workers", "timeout", "concurrency", "seconds", "warmup", "warmup-jobs",
        "jobs", "max", "rates", "groups", "small-groups", "runs", "activity-timeout", "hold-ms", "counts", "samples", "connections",
        "server-pid", "types", "push-port", "rate", "push-concurrency"};

    private LoadBench() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args, OPTIONS);
        String scenario = options.word(0, "all");
        LoadTarget target = new LoadTarget(options);
        System.out.printf("load %s against %s%n", scenario, target.describe());
        switch (scenario) {
            case "enqueue" -> enqueue(target, options);
            case "burndown" -> burnDown(target, options);
            case "latency" -> latency(target, options);
            case "noisy" -> noisy(target, options);
            case "recovery" -> recovery(target, options);
            case "scale" -> scale(target, options);
            case "idle" -> new IdleTypesScenario(target, options.integer("types", 3_000), options.integer("seconds", 10),
                    options.integer("samples", 10), options.integer("server-pid", 0)).run();
            case "client" -> new ClientScenario(options, options.integer("connections", 16), options.integer("seconds", 5),
                    options.integer("server-pid", 0)).run();
            case "push" -> new PushScenario(target, options.integer("push-port", 0), options.integer("jobs", 5_000),
                    options.integer("rate", 200), options.integer("seconds", 10), options.integer("push-concurrency", 16)).run();
            case "all" -> {
                enqueue(target, options);
                burnDown(target, options);
                latency(target, options);
                noisy(target, options);
                recovery(target, options);
                scale(target, options);
                // Last: the types it makes stay in the store.
                new IdleTypesScenario(target, 3_000, 10, 10, options.integer("server-pid", 0)).run();
            }
            default -> throw new IllegalArgumentException(
                    "scenario: enqueue | burndown | latency | noisy | recovery | scale | idle | client | push | all");
        }
    }

    private static void enqueue(LoadTarget target, Options options) throws Exception {
        new EnqueueScenario(target, options.integers("concurrency", 1, 4, 16, 64), options.integer("seconds", 5)).run();
    }

    private static void burnDown(LoadTarget target, Options options) throws Exception {
        new BurnDownScenario(target, options.integer("jobs", 20_000), options.integers("max", 1, 10),
                options.integer("warmup-jobs", 20_000)).run();
    }

    private static void latency(LoadTarget target, Options options) throws Exception {
        new LatencyScenario(target, options.integers("rates", 100, 1_000, 5_000), options.integer("seconds", 10),
                options.integer("warmup", 15)).run();
    }

    private static void noisy(LoadTarget target, Options options) throws Exception {
        new NoisyNeighbourScenario(target, options.integer("jobs", 20_000), options.integer("small-groups", 20)).run();
    }

    private static void recovery(LoadTarget target, Options options) throws Exception {
        new RecoveryScenario(target, options.integer("runs", 5), options.decimal("activity-timeout", 2),
                options.integer("hold-ms", 500)).run();
    }

    private static void scale(LoadTarget target, Options options) throws Exception {
        new ScaleScenario(target, options.integers("counts", 1_000, 100_000), options.integer("groups", 10_000),
                options.integer("samples", 2_000)).run();
    }
}
