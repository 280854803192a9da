package io.jobfoundry.bench.load;

import com.sun.net.httpserver.HttpServer;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.measure.Latency;
import io.jobfoundry.bench.measure.Millis;
import io.jobfoundry.bench.measure.Percentiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Push delivery: the service calls an HTTP target for each job of a push type. The target runs in
 * this process on {@code 127.0.0.1:--push-port} (the service must allow it:
 * {@code jobfoundry.push.allowed-targets}, which {@code bench/load.sh push} sets) and answers
 * {@code 200 {}} at once. Two figures:
 * <ul>
 *   <li>throughput: {@code --jobs} jobs created while the type is paused, then resumed; jobs the
 *       target receives per second until the last;</li>
 *   <li>added latency: creates one at a time at {@code --rate} per second for {@code --seconds};
 *       from a job's creation (its stamp, this process's clock) to the target receiving it.</li>
 * </ul>
 */
final class PushScenario {

    private static final Pattern STAMP = Pattern.compile("\"t\":(-?\\d+)");

    private final LoadTarget target;
    private final int port;
    private final int jobs;
    private final int rate;
    private final int seconds;
    private final int concurrency;

    PushScenario(LoadTarget target, int port, int jobs, int rate, int seconds, int concurrency) {
        if (port <= 0) {
            throw new IllegalArgumentException("push needs --push-port, allowed by the service's jobfoundry.push.allowed-targets");
        }
        this.target = target;
        this.port = port;
        this.jobs = jobs;
        this.rate = rate;
        this.seconds = seconds;
        this.concurrency = concurrency;
    }

    /** What the target saw in one phase: each receipt's latency from its job's stamp, and a count down to the last. */
    private static final class Receipts {
        final Latency latency = new Latency();
        final CountDownLatch remaining;

        Receipts(int expected) {
            remaining = new CountDownLatch(expected);
        }

        synchronized void received(long stampNanos, long nowNanos) {
            latency.recordNanos(nowNanos - stampNanos);
            remaining.countDown();
        }

        synchronized Percentiles percentiles() {
            return latency.percentiles();
        }
    }

    /** The phase under way; the target counts its receipts there. */
    private volatile Receipts receipts = new Receipts(0);

    void run() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
        ExecutorService handlers = Executors.newFixedThreadPool(Math.max(4, concurrency));
        server.setExecutor(handlers);
        server.createContext("/push", exchange -> {
            long now = System.nanoTime();
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Matcher stamp = STAMP.matcher(body);
            byte[] answer = "{}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
            if (stamp.find()) {
                receipts.received(Long.parseLong(stamp.group(1)), now);
            }
        });
        server.start();
        try {
            System.out.printf("push: the service calls a target on 127.0.0.1:%d that answers at once; push concurrency %d%n",
                    port, concurrency);
            throughput();
            latency();
        } finally {
            server.stop(0);
            handlers.shutdownNow();
        }
    }

    private String configure(JobfoundryClient client) throws IOException {
        String type = LoadTarget.freshType("push");
        client.configureType(type, "{\"push\":{\"url\":\"http://127.0.0.1:" + port + "/push\",\"concurrency\":"
                + concurrency + "}}");
        return type;
    }

    private void throughput() throws Exception {
        try (JobfoundryClient client = target.connect()) {
            String type = configure(client);
            client.pause(type);
            double fillRate = target.fill(type, jobs, i -> JobfoundryClient.stampedBody(0, null));
            receipts = new Receipts(jobs);
            long start = System.nanoTime();
            client.resume(type);
            if (!receipts.remaining.await(target.phaseLimit.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("the target received " + (jobs - receipts.remaining.getCount())
                        + " of " + jobs + " pushes within " + target.phaseLimit.toSeconds() + " s");
            }
            double took = (System.nanoTime() - start) / 1e9;
            System.out.printf("throughput: %,d jobs queued (%.0f/s), pushed in %.1f s: %,.0f jobs/s%n", jobs, fillRate,
                    took, jobs / took);
        }
    }

    private void latency() throws Exception {
        try (JobfoundryClient client = target.connect()) {
            String type = configure(client);
            int total = rate * seconds;
            receipts = new Receipts(total);
            long interval = TimeUnit.SECONDS.toNanos(1) / rate;
            long start = System.nanoTime();
            for (int i = 0; i < total; i++) {
                long due = start + i * interval;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                client.create(type, JobfoundryClient.stampedBody(System.nanoTime(), null));
            }
            if (!receipts.remaining.await(target.phaseLimit.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("the target received " + (total - receipts.remaining.getCount())
                        + " of " + total + " pushes");
            }
            Percentiles p = receipts.percentiles();
            System.out.printf("added latency at %d jobs/s for %d s (creation to the target receiving it): "
                    + "p50 %s  p99 %s  max %s%n", rate, seconds, Millis.format(p.p50()), Millis.format(p.p99()),
                    Millis.format(p.max()));
        }
    }
}
