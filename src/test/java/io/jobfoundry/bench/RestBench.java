package io.jobfoundry.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * End to end through the REST API of a running service (start it first:
 * {@code java -jar target/quarkus-app/quarkus-run.jar}), loopback only, bounded in time.
 * <ul>
 *   <li>{@code throughput}: producers create no-op jobs while 16 workers accept ({@code max} 1 or
 *       10, waiting) and finish them: finished jobs per second;</li>
 *   <li>{@code handoff}: 16 workers wait in accept; one producer creates jobs at a steady rate;
 *       the delay from sending the create to a worker holding the job, p50/p99.</li>
 * </ul>
 * <pre>./mvnw -B -q -Pbench test-compile exec:java -Dexec.args="rest throughput|handoff [seconds] [url]"</pre>
 */
public final class RestBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int WORKERS = 16;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    private RestBench(String base) {
        this.base = base;
    }

    public static void main(String[] args) throws Exception {
        String scenario = args.length > 0 ? args[0] : "throughput";
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        RestBench bench = new RestBench(args.length > 2 ? args[2] : "http://127.0.0.1:8080");
        switch (scenario) {
            case "throughput" -> {
                bench.throughput(1, seconds);
                bench.throughput(10, seconds);
            }
            case "handoff" -> bench.handoff(seconds);
            default -> throw new IllegalArgumentException("scenario: throughput | handoff");
        }
    }

    private void throughput(int max, int seconds) throws Exception {
        String type = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        AtomicBoolean running = new AtomicBoolean(true);
        LongAdder finished = new LongAdder();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            threads.add(start(() -> {
                while (running.get()) {
                    post("/v1/jobs/" + type, "{}");
                }
            }));
        }
        for (int w = 0; w < WORKERS; w++) {
            threads.add(start(() -> {
                while (running.get()) {
                    for (JsonNode job : accept(type, max, 1000)) {
                        finish(type, job);
                        finished.increment();
                    }
                }
            }));
        }
        Thread.sleep(1000);
        long before = finished.sum();
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long done = finished.sum() - before;
        double elapsed = (System.nanoTime() - start) / 1e9;
        running.set(false);
        for (Thread thread : threads) {
            thread.join(5000);
        }
        System.out.printf("create→accept(max=%d)→finish, 8 producers, %d workers: %.0f jobs/s%n", max, WORKERS, done / elapsed);
    }

    private void handoff(int seconds) throws Exception {
        String type = "handoff-" + UUID.randomUUID().toString().substring(0, 8);
        AtomicBoolean running = new AtomicBoolean(true);
        ConcurrentLinkedQueue<Long> delays = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            threads.add(start(() -> {
                while (running.get()) {
                    for (JsonNode job : accept(type, 1, 2000)) {
                        delays.add(System.nanoTime() - job.path("data").path("sent").asLong());
                        finish(type, job);
                    }
                }
            }));
        }
        Thread.sleep(1000); // every worker is waiting in accept
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        int rate = 200;
        long next = System.nanoTime();
        while (System.nanoTime() < end) {
            post("/v1/jobs/" + type, "{\"data\":{\"sent\":" + System.nanoTime() + "}}");
            next += 1_000_000_000L / rate;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
        }
        Thread.sleep(500);
        running.set(false);
        for (Thread thread : threads) {
            thread.join(5000);
        }
        long[] sorted = delays.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("creation→receipt by a waiting worker, %d jobs at %d/s: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                sorted.length, rate, sorted[sorted.length / 2] / 1e6, sorted[sorted.length * 99 / 100] / 1e6,
                sorted[sorted.length - 1] / 1e6);
    }

    private JsonNode[] accept(String type, int max, int waitMillis) throws Exception {
        HttpResponse<String> response = send("/v1/accept",
                "{\"types\":[\"" + type + "\"],\"max\":" + max + ",\"wait\":" + waitMillis + "}");
        if (response.statusCode() == 204) {
            return new JsonNode[0];
        }
        JsonNode jobs = JSON.readTree(response.body());
        JsonNode[] result = new JsonNode[jobs.size()];
        for (int i = 0; i < jobs.size(); i++) {
            result[i] = jobs.get(i);
        }
        return result;
    }

    private void finish(String type, JsonNode job) throws Exception {
        send("/v1/jobs/" + type + "/" + job.path("id").asText() + "/finish",
                "{\"lease\":\"" + job.path("lease").asText() + "\",\"outcome\":\"succeeded\"}");
    }

    private void post(String path, String body) throws Exception {
        send(path, body);
    }

    private HttpResponse<String> send(String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300 && response.statusCode() != 409) {
            throw new IllegalStateException(path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response;
    }

    private static Thread start(ThrowingRunnable body) {
        Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}
