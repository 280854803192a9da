package io.jobfoundry.client.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * The JDK's HttpClient against OkHttp on the two calls a busy worker repeats: GET of a job and POST of a small
 * JSON body (a heartbeat-sized create). Rounds alternate between the clients so that a change in the machine's
 * load hits both; the figures are medians over rounds: requests per second, and the client process' CPU time per
 * request (the service runs in another process, so this is the client's own cost).
 */
public final class HttpClientBench {

    interface Client {
        int get(String url) throws Exception;

        int post(String url, String json) throws Exception;
    }

    static final class Jdk implements Client {
        private final HttpClient http;

        Jdk(boolean direct) {
            HttpClient.Builder builder = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10));
            // By default the JDK client completes responses on a pool thread; a direct executor completes them
            // on its selector thread, one thread hop less per call.
            this.http = (direct ? builder.executor(Runnable::run) : builder).build();
        }

        public int get(String url) throws Exception {
            return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofByteArray())
                    .statusCode();
        }

        public int post(String url, String json) throws Exception {
            return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofByteArray())
                    .statusCode();
        }
    }

    static final class Ok implements Client {
        private static final MediaType JSON = MediaType.get("application/json");
        private final OkHttpClient http = new OkHttpClient.Builder()
                .dispatcher(new okhttp3.Dispatcher())
                .connectionPool(new okhttp3.ConnectionPool(32, 5, java.util.concurrent.TimeUnit.MINUTES)).build();

        public int get(String url) throws IOException {
            try (Response r = http.newCall(new Request.Builder().url(url).build()).execute()) {
                r.body().bytes();
                return r.code();
            }
        }

        public int post(String url, String json) throws IOException {
            try (Response r = http.newCall(new Request.Builder().url(url).post(RequestBody.create(json, JSON)).build())
                    .execute()) {
                r.body().bytes();
                return r.code();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        String base = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        String type = "bench-http-" + System.nanoTime();
        Ok ok = new Ok();
        Jdk jdk = new Jdk(false);
        Jdk direct = new Jdk(true);
        // Each client's first request pays for its own classes; the JDK's go second, with the JVM's shared
        // classes already loaded by OkHttp's, so the JDK figure flatters it a little.
        long firstOk = first(ok, base + "/q/health/live");
        long firstJdk = first(jdk, base + "/q/health/live");
        Client[] clients = {jdk, direct, ok};
        String created = base + "/v1/jobs/" + type + "/probe";
        int put = jdk.post(base + "/v1/jobs/" + type, "{\"data\":{\"n\":1}}");
        if (put != 201) {
            throw new IllegalStateException("create answered " + put);
        }
        okhttpPut(ok, created);
        System.out.println("| call | threads | JDK: req/s / us CPU per req | JDK, direct executor | OkHttp 4.12 |");
        System.out.println("|---|---|---|---|---|");
        for (int threads : new int[] {1, 8}) {
            for (String call : new String[] {"GET job", "POST create"}) {
                double[][] rate = new double[clients.length][rounds];
                double[][] cpu = new double[clients.length][rounds];
                for (int round = -1; round < rounds; round++) { // round -1 warms every client up
                    for (int c = 0; c < clients.length; c++) {
                        Client client = clients[c];
                        double[] r = run(client, call.startsWith("GET") ? created : base + "/v1/jobs/" + type,
                                call.startsWith("GET"), requests, threads);
                        if (round >= 0) {
                            rate[c][round] = r[0];
                            cpu[c][round] = r[1];
                        }
                    }
                }
                System.out.printf("| %s | %d | %.0f / %.0f | %.0f / %.0f | %.0f / %.0f |%n", call, threads,
                        median(rate[0]), median(cpu[0]), median(rate[1]), median(cpu[1]), median(rate[2]), median(cpu[2]));
            }
        }
        System.out.printf("first request (class loading, connect): JDK %d ms, OkHttp %d ms%n", firstJdk, firstOk);
        System.exit(0);
    }

    private static void okhttpPut(Ok ok, String url) throws IOException {
        try (Response r = ok.http.newCall(new Request.Builder().url(url)
                .put(RequestBody.create("{\"data\":{\"n\":2}}", Ok.JSON)).build()).execute()) {
            if (r.code() != 201 && r.code() != 200) {
                throw new IllegalStateException("PUT answered " + r.code());
            }
        }
    }

    private static long first(Client client, String url) throws Exception {
        long start = System.nanoTime();
        client.get(url);
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** @return requests per second and client CPU microseconds per request */
    private static double[] run(Client client, String url, boolean get, int requests, int threads) throws Exception {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                for (int i = 0; i < requests / threads; i++) {
                    int status = get ? client.get(url) : client.post(url, "{\"data\":{\"n\":1,\"to\":\"a@example.org\"}}");
                    if (status != 200 && status != 201) {
                        throw new IllegalStateException("answered " + status);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        long wall = System.nanoTime() - t0;
        long cpu = os.getProcessCpuTime() - cpu0;
        pool.shutdown();
        return new double[] {requests * 1e9 / wall, cpu / 1000.0 / requests};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
