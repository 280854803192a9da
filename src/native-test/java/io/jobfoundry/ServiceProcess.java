package io.jobfoundry;

import java.io.IOException;
import java.net.ServerSocket;
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
import java.util.concurrent.TimeUnit;

/**
 * The packaged service as a child process that a test can kill with SIGKILL and start again on
 * the same store: the native executable where one was built ({@code -Pnative}), else the jar.
 */
final class ServiceProcess implements AutoCloseable {

    private static final Path JAR = Path.of("target/quarkus-app/quarkus-run.jar");

    private final Path store;
    private final Path log;
    private final Map<String, String> environment;
    private final int port;
    private Process process;

    ServiceProcess(Path store, Path log, Map<String, String> environment) throws IOException {
        this.store = store;
        this.log = log;
        this.environment = environment;
        try (ServerSocket socket = new ServerSocket(0)) {
            this.port = socket.getLocalPort();
        }
    }

    String baseUri() {
        return "http://127.0.0.1:" + port;
    }

    /** Starts the service and answers once it reports ready. */
    void start() throws Exception {
        List<String> command = new ArrayList<>(launcher());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        builder.environment().put("JOBFOUNDRY_EMBEDDED_PATH", store.toString());
        builder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        builder.environment().put("QUARKUS_HTTP_HOST", "127.0.0.1");
        process = builder.start();
        awaitReady(Duration.ofSeconds(60));
    }

    /** SIGTERM, as Kubernetes sends it; answers the exit code. */
    int stop(Duration timeout) throws InterruptedException {
        terminate();
        return awaitExit(timeout);
    }

    /** SIGTERM, without waiting for the process to end. */
    void terminate() {
        process.destroy();
    }

    /** Waits for the process to end; answers its exit code. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the service did not stop within " + timeout + "; see " + log);
        }
        return process.exitValue();
    }

    /** {@code kill -9}: no shutdown hook, no flush, no close. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the service did not die");
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    private static List<String> launcher() throws IOException {
        try (var files = Files.list(Path.of("target"))) {
            List<Path> natives = files.filter(p -> p.getFileName().toString().endsWith("-runner"))
                    .filter(Files::isExecutable).toList();
            if (!natives.isEmpty()) {
                return List.of(natives.get(0).toAbsolutePath().toString());
            }
        }
        if (!Files.exists(JAR)) {
            throw new IllegalStateException(JAR + " is missing: run the tests with 'mvn verify'");
        }
        String java = ProcessHandle.current().info().command().orElse("java");
        return List.of(java, "-jar", JAR.toAbsolutePath().toString());
    }

    private void awaitReady(Duration timeout) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest ready = HttpRequest.newBuilder(URI.create(baseUri() + "/q/health/ready"))
                .timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with " + process.exitValue() + "; see " + log);
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // Starting: the port opens shortly.
            }
            // Polling a starting process's port is the one wait here that has no event to wait on.
            process.waitFor(100, TimeUnit.MILLISECONDS);
        }
        throw new IllegalStateException("the service was not ready within " + timeout + "; see " + log);
    }
}
