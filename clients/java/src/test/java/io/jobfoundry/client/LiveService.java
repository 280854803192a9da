package io.jobfoundry.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/** The running service the *IT tests use, given by -Djobfoundry.url (clients/test.sh starts the packaged jar). */
final class LiveService {

    private LiveService() {
    }

    static String url() {
        String url = System.getProperty("jobfoundry.url", System.getenv("JOBFOUNDRY_URL"));
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("set -Djobfoundry.url=http://host:port to a running service");
        }
        return url;
    }

    /** A client of the service, with the token in JOBFOUNDRY_TOKEN if it is set (clients/test.sh configures one). */
    static JobfoundryClient client() {
        return client(url());
    }

    static JobfoundryClient client(String url) {
        String token = System.getenv("JOBFOUNDRY_TOKEN");
        return token == null || token.isBlank() ? JobfoundryClient.create(url)
                : JobfoundryClient.builder(url).token(token).build();
    }

    /** A type of its own for each test, so tests sharing one service never see each other's jobs. */
    static String newType(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A type whose jobs come back one second after their processor goes quiet. */
    static String quickType(JobfoundryClient client, String prefix) {
        return quickType(client, prefix, 1);
    }

    /** A type whose jobs come back {@code seconds} after their processor goes quiet, and retry at once. */
    static String quickType(JobfoundryClient client, String prefix, int seconds) {
        String type = newType(prefix);
        client.configureType(type, Map.of("activityTimeout", seconds, "backoff", Map.of("base", 0, "max", 0)));
        return type;
    }

    /**
     * Accepts blocked on the service right now: its {@code jobfoundry_waits_accepts} gauge, read from
     * {@code /q/metrics} with the token. A worker's accept is only seen to have left once the service
     * has noticed its connection close, which comes a moment after the worker returned.
     */
    static int waitingAccepts() {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url() + "/q/metrics"));
        String token = System.getenv("JOBFOUNDRY_TOKEN");
        if (token != null && !token.isBlank()) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> metrics;
        try {
            metrics = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return metrics.body().lines().filter(line -> line.startsWith("jobfoundry_waits_accepts "))
                .mapToInt(line -> (int) Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim()))
                .findFirst().orElseThrow(() -> new AssertionError("no jobfoundry_waits_accepts in /q/metrics: "
                        + metrics.statusCode()));
    }

    static void awaitTrue(java.util.function.BooleanSupplier condition, Duration timeout, String what)
            throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError(what + ": not within " + timeout);
            }
            Thread.sleep(20);
        }
    }
}
