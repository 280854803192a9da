package io.jobfoundry.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobfoundry.bench.Options;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.client.StoreTransactions;
import io.jobfoundry.bench.http.HttpClientKind;
import io.jobfoundry.bench.measure.CpuMeter;
import io.jobfoundry.bench.measure.Machine;
import io.jobfoundry.bench.measure.Percentiles;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One system's run of the comparison workload (see {@link Workload}); {@code bench/compare.sh}
 * starts each server and calls this once per system, then {@link ReportBench} draws the results.
 * Warm-up runs of the same shape go first, so that no system is measured cold (JIT, caches,
 * connection set-up); only the run after them is recorded. A JVM keeps compiling long after it
 * serves: on two cores its JIT compiler takes CPU from the service for minutes, and a measured run
 * that starts too early counts that as the service's cost. So up to {@code --warmup-rounds} warm-up
 * runs go first, each of {@code --warmup} jobs, and they stop early once the server's JIT compiler
 * took at most {@code --jit-settled} percent of its CPU in one (servers without a JIT stop after the
 * first); the measured run records the JIT's part of the server's CPU beside the whole.
 * <pre>
 * Bench compare jobfoundry|jobfoundry-java|jobfoundry-python|beanstalkd|bullmq|graphile-worker
 *     [--workload single|bulk] [--jobs 20000] [--workers 16] [--producers 4] [--timeout 60] [--warmup 2000]
 *     [--warmup-rounds 1] [--jit-settled 10]
 *     [--label TEXT] [--version TEXT] [--durability TEXT] [--server-pid PID]
 *     [--out target/bench/compare/results.jsonl]
 *   jobfoundry:      [--url http://127.0.0.1:8080] [--client raw|jdk]
 *   jobfoundry-java: [--url http://127.0.0.1:8080] --classpath CP (clients/java and clients/java/bench/compare, built)
 *   jobfoundry-python: [--url http://127.0.0.1:8080] [--python-client clients/python]
 *   beanstalkd:      [--port 11300]
 *   bullmq:          [--port 6379] [--node-dir bench/node]
 *   graphile-worker: [--connection postgres://127.0.0.1:5432/postgres] [--node-dir bench/node]
 * </pre>
 */
public final class CompareBench {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Runs the workload once, on fresh queue names. */
    @FunctionalInterface
    private interface Runner {
        Outcome run(Workload workload) throws Exception;
    }

    /**
     * A system under test: the client that drives it, how it runs the workload, and — for
     * Jobfoundry only — a connection to read the store's transaction counter from.
     */
    private record Subject(String client, Runner runner, Optional<HttpClientKind.ConnectionFactory> metrics) {
    }

    private CompareBench() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args, "workload", "jobs", "workers", "producers", "timeout", "warmup", "warmup-rounds", "jit-settled", "label", "version",
                "durability", "server-pid", "out", "url", "client", "port", "node-dir", "connection", "classpath", "python-client");
        String system = options.word(0, "");
        Workload.Shape shape = Workload.Shape.parse(options.text("workload", Workload.Shape.SINGLE.id()));
        Workload workload = new Workload(shape, options.integer("jobs", 20_000), options.integer("producers", 4),
                options.integer("workers", 16), Duration.ofSeconds(options.integer("timeout", 60)));
        Subject subject = subject(system, shape, options);
        String label = options.text("label", system);
        int serverPid = options.integer("server-pid", 0);
        int warmupRounds = warmUp(subject, workload, options, serverPid, label);
        String loadBefore = Machine.currentLoad();
        Optional<CpuMeter> server = serverPid > 0 ? CpuMeter.start(serverPid) : Optional.empty();
        Probed probed = probed(subject, workload);
        Outcome outcome = probed.outcome();
        OptionalDouble perJob = probed.transactionsPerJob();
        long completed = Math.max(1, outcome.completed());
        RunResult result = new RunResult(system, label, shape.id(), shape.createBatch, shape.fetchMax,
                options.text("version", "unknown"),
                options.text("durability", "unknown"), subject.client(), workload.jobs(), outcome.created(),
                outcome.completed(), workload.producers(), workload.workers(), outcome.completed() == workload.jobs(),
                outcome.seconds(), outcome.jobsPerSecond(), outcome.receipt().percentiles(),
                perJob.isPresent() ? perJob.getAsDouble() : null, outcome.jobsPerFetch(),
                outcome.clientCpuSeconds() * 1000 / completed,
                server.map(s -> s.seconds() * 1000 / completed).orElse(null),
                server.map(s -> s.compilerSeconds() * 1000 / completed).orElse(null), warmupRounds, loadBefore, Machine.currentLoad(),
                Instant.now().toString());
        print(result);
        append(Path.of(options.text("out", "target/bench/compare/results.jsonl")), result);
    }

    /** Runs the warm-up rounds (see the class comment); answers how many ran. */
    private static int warmUp(Subject subject, Workload workload, Options options, int serverPid, String label)
            throws Exception {
        int jobs = options.integer("warmup", 2_000);
        int rounds = options.integer("warmup-rounds", 1);
        double settled = options.integer("jit-settled", 10) / 100.0;
        for (int round = 1; jobs > 0 && round <= rounds; round++) {
            Optional<CpuMeter> server = serverPid > 0 ? CpuMeter.start(serverPid) : Optional.empty();
            Outcome warm = probed(subject, workload.withJobs(jobs)).outcome();
            double cpu = server.map(CpuMeter::seconds).orElse(0.0);
            double jit = server.map(CpuMeter::compilerSeconds).orElse(0.0);
            System.out.printf("%s %s warm-up %d: %d jobs, %.0f jobs/s, server CPU %.1f s, of it JIT %.0f%%%n", label,
                    workload.shape().id(), round, warm.completed(), warm.jobsPerSecond(), cpu, cpu > 0 ? 100 * jit / cpu : 0);
            if (cpu == 0 || jit <= settled * cpu) {
                return round;
            }
        }
        return jobs > 0 ? Math.max(0, rounds) : 0;
    }

    private record Probed(Outcome outcome, OptionalDouble transactionsPerJob) {
    }

    /**
     * Runs the workload, reading Jobfoundry's store transaction counter before and after. The
     * warm-ups read it too: the first {@code /q/metrics} after a warm-up that never asked for it
     * made the JIT recompile the HTTP metrics path (a new timer and URI), 1.7 s of C2 in the
     * measured run.
     */
    private static Probed probed(Subject subject, Workload workload) throws Exception {
        if (subject.metrics().isEmpty()) {
            return new Probed(subject.runner().run(workload), OptionalDouble.empty());
        }
        try (JobfoundryClient probe = new JobfoundryClient(subject.metrics().get().open())) {
            StoreTransactions transactions = StoreTransactions.start(probe);
            Outcome outcome = subject.runner().run(workload);
            return new Probed(outcome, transactions.perJob(outcome.completed()));
        }
    }

    private static Subject subject(String system, Workload.Shape shape, Options options) throws IOException, InterruptedException {
        Path nodeDir = Path.of(options.text("node-dir", "bench/node")).toAbsolutePath();
        return switch (system) {
            case "jobfoundry" -> {
                URI base = options.uri("url", "http://127.0.0.1:8080");
                HttpClientKind kind = HttpClientKind.parse(options.text("client", "raw"));
                yield new Subject(JobfoundryQueue.client(kind),
                        w -> JavaWorkload.run(new JobfoundryQueue(base, kind, freshName("compare-"), shape), w),
                        Optional.of(kind.factory(base)));
            }
            // The client libraries, each through a driver written as a user of it would (its worker runtime,
            // its producer calls), in processes of their own like the Node drivers; see DriverWorkload.
            case "jobfoundry-java" -> {
                URI base = options.uri("url", "http://127.0.0.1:8080");
                String classpath = options.text("classpath", "");
                if (classpath.isEmpty()) {
                    throw new IllegalArgumentException("jobfoundry-java needs --classpath: clients/java and clients/java/bench/compare, built");
                }
                String java = ProcessHandle.current().info().command().orElse("java");
                DriverWorkload driver = new DriverWorkload("java client",
                        List.of(java, "-cp", classpath, "io.jobfoundry.client.bench.CompareDriver"), Path.of("."), Map.of(),
                        List.of("--url", base.toString()));
                yield new Subject("Java " + Runtime.version().feature() + ", clients/java (JDK HttpClient), one worker process"
                        + " and one producer process (clients/java/bench/compare CompareDriver)",
                        w -> driver.run(w, freshName("compare-")), Optional.of(HttpClientKind.RAW.factory(base)));
            }
            case "jobfoundry-python" -> {
                URI base = options.uri("url", "http://127.0.0.1:8080");
                Path client = Path.of(options.text("python-client", "clients/python")).toAbsolutePath();
                DriverWorkload driver = new DriverWorkload("python client",
                        List.of("python3", client.resolve("bench/compare_driver.py").toString()), client,
                        Map.of("PYTHONPATH", client.toString()), List.of("--url", base.toString()));
                yield new Subject(version("python3", "--version") + ", clients/python (http.client), one worker process"
                        + " and one producer process (clients/python/bench/compare_driver.py)",
                        w -> driver.run(w, freshName("compare-")), Optional.of(HttpClientKind.RAW.factory(base)));
            }
            case "beanstalkd" -> {
                InetSocketAddress address = new InetSocketAddress("127.0.0.1", options.integer("port", 11300));
                yield new Subject(BeanstalkQueue.CLIENT,
                        w -> JavaWorkload.run(new BeanstalkQueue(address, freshName("compare-")), w), Optional.empty());
            }
            case "bullmq" -> {
                DriverWorkload node = DriverWorkload.node(nodeDir.resolve("bullmq.mjs"),
                        List.of("--port", Integer.toString(options.integer("port", 6379))));
                yield new Subject("Node " + version("node", "--version") + ", bench/node/bullmq.mjs", w -> node.run(w, freshName("compare-")),
                        Optional.empty());
            }
            case "graphile-worker" -> {
                DriverWorkload node = DriverWorkload.node(nodeDir.resolve("graphile-worker.mjs"),
                        List.of("--connection", options.text("connection", "postgres://127.0.0.1:5432/postgres")));
                // graphile-worker task names are identifiers: no dashes
                yield new Subject("Node " + version("node", "--version") + ", bench/node/graphile-worker.mjs",
                        w -> node.run(w, freshName("compare_")), Optional.empty());
            }
            default -> throw new IllegalArgumentException(
                    "system: jobfoundry | jobfoundry-java | jobfoundry-python | beanstalkd | bullmq | graphile-worker");
        };
    }

    /** One line; bench/ab.sh reads it ("LABEL: ... = N jobs/s ... server N"), so keep that shape. */
    private static void print(RunResult r) {
        Percentiles p = r.receiptLatency();
        System.out.printf("%s: %s, %d/%d jobs in %.2f s = %.0f jobs/s%s; creation→receipt %s; txn/job %s; jobs/fetch %s; "
                + "CPU ms/job client %.3f server %s%s; load %s → %s%n", r.label(), r.workload(), r.completed(), r.jobs(), r.seconds(),
                r.jobsPerSecond(), r.complete() ? "" : " (STOPPED at the time bound)", p.line(),
                r.storeTransactionsPerJob() == null ? "n/a" : String.format("%.2f", r.storeTransactionsPerJob()),
                r.jobsPerFetch() == null ? "n/a" : String.format("%.1f", r.jobsPerFetch()), r.clientCpuMsPerJob(),
                r.serverCpuMsPerJob() == null ? "n/a" : String.format("%.3f", r.serverCpuMsPerJob()),
                r.serverJitCpuMsPerJob() == null ? "" : String.format(" (JIT %.3f)", r.serverJitCpuMsPerJob()),
                r.loadBefore(), r.loadAfter());
    }

    private static void append(Path jsonl, RunResult result) throws IOException {
        Files.createDirectories(jsonl.toAbsolutePath().getParent());
        Files.writeString(jsonl, JSON.writeValueAsString(result) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    private static String freshName(String prefix) {
        return prefix + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41), 36);
    }

    /** What {@code command} prints, trimmed: {@code node --version}, {@code python3 --version}. */
    private static String version(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String version = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        process.waitFor();
        return version;
    }
}
