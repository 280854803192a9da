package io.jobfoundry.bench.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobfoundry.bench.measure.Latency;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@link Workload} through a driver program of its own: the Node drivers in
 * {@code bench/node} (BullMQ, graphile-worker), and the Jobfoundry client libraries' drivers
 * ({@code clients/java/bench/compare}, {@code clients/python/bench}). A worker process and a producer
 * process, as in a real deployment. The worker starts first and says {@code ready}; then the
 * producer starts; each ends with one JSON result line, which this class turns into an
 * {@link Outcome}. Every driver takes {@code ROLE --queue Q --jobs J --timeout S} and
 * {@code --producers N} (producer) or {@code --concurrency W} (worker), {@code --batch B --fetch F}
 * for the shape, and its target's own arguments. A worker's result may say how many of its
 * fetches brought jobs ({@code fetches}, the client libraries' accept calls); the Node libraries
 * fetch inside and do not.
 */
final class DriverWorkload {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final List<String> command;
    private final Path directory;
    private final Map<String, String> environment;
    private final List<String> targetArgs;
    /** The run's {@link Workload.Shape} for the drivers: {@code --batch B --fetch F}. */
    private List<String> shapeArgs = List.of();

    /**
     * {@code command}: the driver without its arguments, run in {@code directory} with
     * {@code environment} added to this process' own; {@code targetArgs}: how the driver reaches
     * its server, e.g. {@code --port 16379}; {@code name}: how its messages are labelled.
     */
    DriverWorkload(String name, List<String> command, Path directory, Map<String, String> environment,
            List<String> targetArgs) {
        this.name = name;
        this.command = List.copyOf(command);
        this.directory = directory;
        this.environment = Map.copyOf(environment);
        this.targetArgs = targetArgs;
    }

    /** A Node driver in {@code bench/node}: {@code node SCRIPT}, run in the script's folder (its node_modules). */
    static DriverWorkload node(Path script, List<String> targetArgs) {
        return new DriverWorkload("node", List.of("node", script.toString()), script.getParent(), Map.of(), targetArgs);
    }

    Outcome run(Workload workload, String queue) throws Exception {
        shapeArgs = List.of("--batch", Integer.toString(workload.shape().createBatch), "--fetch",
                Integer.toString(workload.shape().fetchMax));
        long limitSeconds = workload.limit().toSeconds();
        long deadline = System.nanoTime() + workload.limit().toNanos() + TimeUnit.SECONDS.toNanos(30);
        try (Driver worker = start("worker", queue, workload.jobs(), limitSeconds, "--concurrency", workload.workers())) {
            worker.await("ready", deadline);
            try (Driver producer = start("producer", queue, workload.jobs(), limitSeconds, "--producers",
                    workload.producers())) {
                JsonNode produced = producer.await("result", deadline);
                JsonNode worked = worker.await("result", deadline);
                Latency receipt = new Latency();
                for (JsonNode micros : worked.path("latencyMicros")) {
                    receipt.recordMicros(micros.asLong());
                }
                double cpu = (produced.path("cpuMicros").asLong() + worked.path("cpuMicros").asLong()) / 1e6;
                return new Outcome(produced.path("created").asLong(), worked.path("completed").asLong(),
                        Long.parseLong(produced.path("startNs").asText()), Long.parseLong(worked.path("lastCompleteNs").asText()),
                        receipt, cpu, worked.path("fetches").asLong(0));
            }
        }
    }

    private Driver start(String role, String queue, int jobs, long timeoutSeconds, String countOption, int count)
            throws IOException {
        List<String> line = new ArrayList<>(command);
        line.addAll(List.of(role, "--queue", queue, "--jobs", Integer.toString(jobs), "--timeout",
                Long.toString(timeoutSeconds), countOption, Integer.toString(count)));
        line.addAll(targetArgs);
        line.addAll(shapeArgs);
        ProcessBuilder builder = new ProcessBuilder(line).directory(directory.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(environment);
        return new Driver(name + " " + role, builder.start());
    }

    /** A driver process whose stdout lines are read as JSON events on a thread of their own. */
    private static final class Driver implements AutoCloseable {

        private final String role;
        private final Process process;
        /** Put on the queue when the process closes its output. */
        private static final JsonNode END_OF_OUTPUT = JSON.createObjectNode().put("event", "end of output");

        private final BlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();

        Driver(String role, Process process) {
            this.role = role;
            this.process = process;
            Thread reader = new Thread(this::read, "driver-" + role.replace(' ', '-'));
            reader.setDaemon(true);
            reader.start();
        }

        private void read() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith("{")) {
                        events.add(JSON.readTree(line));
                    } else {
                        System.err.println(role + ": " + line);
                    }
                }
            } catch (IOException e) {
                System.err.println(role + ": " + e);
            }
            events.add(END_OF_OUTPUT);
        }

        JsonNode await(String event, long deadlineNanos) throws InterruptedException {
            while (true) {
                JsonNode next = events.poll(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (next == null) {
                    throw new IllegalStateException(role + " gave no '" + event + "' in time");
                }
                if (next == END_OF_OUTPUT) {
                    events.add(END_OF_OUTPUT); // later awaits end the same way
                    process.waitFor(5, TimeUnit.SECONDS);
                    throw new IllegalStateException(role + " ended without '" + event + "'"
                            + (process.isAlive() ? "" : " (exit code " + process.exitValue() + ")"));
                }
                if (next.path("event").asText().equals(event)) {
                    return next;
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
