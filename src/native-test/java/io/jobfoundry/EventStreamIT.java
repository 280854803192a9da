package io.jobfoundry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Event streams whose clients hang up at once, before the response starts: the packaged service
 * lets every one go (each holds a store watch and buffers every change while it lives), and logs
 * no error for them.
 */
class EventStreamIT {

    private static final Pattern OPEN = Pattern.compile("(?m)^jobfoundry_waits_event_streams ([0-9.]+)$");
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void streamsOfClientsThatLeftAtOnceAreLetGo() throws Exception {
        String type = "gone-" + UUID.randomUUID().toString().substring(0, 8);
        Path folder = Files.createDirectories(Path.of("target/it-stores", type));
        Path log = folder.resolve("service.log");
        try (ServiceProcess service = new ServiceProcess(folder.resolve("jobfoundry.db"), log, Map.of())) {
            service.start();
            String base = service.baseUri();
            int port = URI.create(base).getPort();
            assertEquals(201, http.send(HttpRequest.newBuilder(URI.create(base + "/v1/jobs/" + type + "/j"))
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode());

            for (int i = 0; i < 100; i++) {
                try (Socket socket = new Socket("127.0.0.1", port)) {
                    OutputStream out = socket.getOutputStream();
                    out.write(("GET /v1/jobs/" + type + "/j/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            }

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            double open;
            while ((open = openStreams(base)) > 0) {
                assertTrue(System.nanoTime() < deadline, open + " event streams stayed open");
                // Nothing announces a stream's end from outside: poll the gauge, well inside the deadline.
                Thread.sleep(200);
            }
            assertFalse(Files.readString(log).contains("(a bug)"), "a client that left is not a bug");
        }
    }

    private double openStreams(String base) throws Exception {
        String metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/q/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher matcher = OPEN.matcher(metrics);
        assertTrue(matcher.find(), "jobfoundry_waits_event_streams is exported");
        return Double.parseDouble(matcher.group(1));
    }
}
