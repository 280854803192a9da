package io.jobfoundry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM: workers blocked in accept are answered {@code 204} at once instead of hanging until
 * their wait ends, event streams end, writers in flight finish, and after a restart every create
 * the service acknowledged is there.
 */
class GracefulShutdownIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private final String type = "term-" + UUID.randomUUID().toString().substring(0, 8);
    private String base;

    @Test
    void sigtermAnswersWaitersEndsStreamsAndLosesNothing() throws Exception {
        Path folder = Files.createDirectories(Path.of("target/it-stores", type));
        try (ServiceProcess service = new ServiceProcess(folder.resolve("jobfoundry.db"), folder.resolve("service.log"),
                Map.of())) {
            service.start();
            base = service.baseUri();
            assertEquals(201, post("/v1/jobs/" + type, "{}").statusCode());
            String watched = JSON.readTree(post("/v1/jobs/" + type + "-watched", "{}").body()).path("id").asText();

            // Four workers wait a minute for a type nobody adds to; a client follows a job's events.
            List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                waiting.add(http.sendAsync(request("/v1/accept", "{\"types\":[\"" + type + "-idle\"],\"wait\":60000}"),
                        HttpResponse.BodyHandlers.ofString()));
            }
            CompletableFuture<HttpResponse<Stream<String>>> events = http.sendAsync(
                    HttpRequest.newBuilder(URI.create(base + "/v1/jobs/" + type + "-watched/" + watched + "/events")).build(),
                    HttpResponse.BodyHandlers.ofLines());
            CompletableFuture<Long> streamEnded = events.thenApplyAsync(response -> response.body().count());

            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            AtomicBoolean writing = new AtomicBoolean(true);
            List<Thread> writers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Thread writer = new Thread(() -> {
                    while (writing.get()) {
                        try {
                            HttpResponse<String> created = post("/v1/jobs/" + type, "{}");
                            if (created.statusCode() == 201) {
                                acknowledged.add(JSON.readTree(created.body()).path("id").asText());
                            }
                        } catch (IOException | InterruptedException refused) {
                            return; // the server stopped taking requests
                        }
                    }
                });
                writer.setDaemon(true);
                writer.start();
                writers.add(writer);
            }
            assertEquals(200, events.get(30, TimeUnit.SECONDS).statusCode());

            long stopping = System.nanoTime();
            int exit = service.stop(Duration.ofSeconds(45));
            assertTrue(exit == 0 || exit == 143, "a clean exit on SIGTERM, not " + exit);
            // quarkus.shutdown.timeout is 10 s: had the long-polls held the HTTP server, it would have waited that long.
            assertTrue(System.nanoTime() - stopping < TimeUnit.SECONDS.toNanos(8), "waiting workers did not hold up the shutdown");
            writing.set(false);
            for (CompletableFuture<HttpResponse<String>> accept : waiting) {
                assertEquals(204, accept.get(30, TimeUnit.SECONDS).statusCode(), "a waiting accept is answered: no job");
            }
            assertTrue(streamEnded.get(30, TimeUnit.SECONDS) > 0, "the event stream ended after its first event");
            for (Thread writer : writers) {
                writer.join(TimeUnit.SECONDS.toMillis(30));
            }

            service.start();
            String log = Files.readString(folder.resolve("service.log"));
            assertFalse(log.contains("was not closed"), "a SIGTERM closes the store cleanly: " + log);
            assertFalse(acknowledged.isEmpty());
            for (String id : acknowledged) {
                assertEquals(200, get("/v1/jobs/" + type + "/" + id).statusCode(), "acknowledged job " + id + " was lost");
            }
        }
    }

    /**
     * With {@code quarkus.shutdown.delay} (Kubernetes withdrawing the pod), the service works on
     * through the delay: a worker waiting in accept is handed a job added then, instead of a
     * {@code 204} at the SIGTERM that would set it looping on {@code 204}s for the whole delay.
     * Waiting still ends before the HTTP server drains, so the shutdown is not held up.
     */
    @Test
    void duringTheShutdownDelayWaitingWorkersAreStillServed() throws Exception {
        Path folder = Files.createDirectories(Path.of("target/it-stores", type + "-delay"));
        Duration delay = Duration.ofSeconds(3);
        try (ServiceProcess service = new ServiceProcess(folder.resolve("jobfoundry.db"), folder.resolve("service.log"),
                Map.of("QUARKUS_SHUTDOWN_DELAY", delay.toMillis() + "ms"))) {
            service.start();
            base = service.baseUri();
            CompletableFuture<HttpResponse<String>> handed = http.sendAsync(
                    request("/v1/accept", "{\"types\":[\"" + type + "\"],\"wait\":60000}"), HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> idle = http.sendAsync(
                    request("/v1/accept", "{\"types\":[\"" + type + "-idle\"],\"wait\":60000}"), HttpResponse.BodyHandlers.ofString());

            long stopping = System.nanoTime();
            service.terminate();
            awaitNotReady();
            assertFalse(handed.isDone(), "a waiting worker was sent away at the SIGTERM: " + handed.getNow(null));
            HttpResponse<String> created = post("/v1/jobs/" + type, "{}");
            assertEquals(201, created.statusCode(), created.body());
            String id = JSON.readTree(created.body()).path("id").asText();

            HttpResponse<String> accepted = handed.get(30, TimeUnit.SECONDS);
            assertEquals(200, accepted.statusCode(), accepted.body());
            assertEquals(id, JSON.readTree(accepted.body()).path(0).path("id").asText(), accepted.body());
            assertEquals(204, idle.get(30, TimeUnit.SECONDS).statusCode(), "waiting ends before the process does");
            int exit = service.awaitExit(Duration.ofSeconds(45));
            assertTrue(exit == 0 || exit == 143, "a clean exit on SIGTERM, not " + exit);
            // quarkus.shutdown.timeout is 10 s: had the idle long-poll held the HTTP server, it would have waited that long.
            long took = System.nanoTime() - stopping;
            assertTrue(took < delay.plusSeconds(5).toNanos(), "the shutdown took " + took / 1_000_000 + " ms");
        }
    }

    /** Readiness goes down at the SIGTERM, while the server still answers. */
    private void awaitNotReady() throws Exception {
        HttpRequest ready = HttpRequest.newBuilder(URI.create(base + "/q/health/ready")).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            assertTrue(System.nanoTime() < deadline, "readiness stayed up after SIGTERM");
            // No event says when the signal handler has run: poll as ServiceProcess does for readiness.
            Thread.sleep(50);
        }
    }

    private HttpRequest request(String path, String body) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(90))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return http.send(request(path, body), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
