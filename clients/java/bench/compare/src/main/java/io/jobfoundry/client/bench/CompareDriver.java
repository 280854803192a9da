package io.jobfoundry.client.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobfoundry.client.JobSpec;
import io.jobfoundry.client.JobfoundryClient;
import io.jobfoundry.client.NewJob;
import io.jobfoundry.client.Worker;
import io.jobfoundry.client.WorkerStats;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The comparison workload of {@code bench/compare.sh} driven through this client library, as a user of it would
 * write it: {@code java -cp CP io.jobfoundry.client.bench.CompareDriver producer|worker --url U --queue Q --jobs J
 * --timeout S [--producers N] [--concurrency W] [--batch B] [--fetch F]}. It speaks the protocol of the Node drivers
 * in {@code bench/node} (read by {@code io.jobfoundry.bench.compare.DriverWorkload}): one JSON object per stdout line,
 * {@code ready} from the worker once it accepts, then one {@code result} from each process.
 *
 * <ul>
 *   <li>Producer: N threads share one {@link JobfoundryClient} and claim the next B jobs each until J are claimed:
 *       {@link JobfoundryClient#create} per job when B is 1, {@link JobfoundryClient#createBatch} of B otherwise.
 *       Each thread makes one call before the clock starts, so connections are open, as the raw rows' are.</li>
 *   <li>Worker: one {@link Worker} of concurrency W × F (as many jobs in flight as W raw workers holding up to F
 *       each), its handler a no-op that records when it received the job. The library decides how many jobs an
 *       accept asks for and how finishes are batched; a job counts as completed when the worker's
 *       {@link WorkerStats#succeeded()} says its finish was answered.</li>
 * </ul>
 * Times are {@link System#nanoTime()}, {@code CLOCK_MONOTONIC} on Linux, the clock the other drivers read. CPU
 * ({@code cpuMicros}) is the whole process' from the moment the producers are released (the worker: from
 * {@code ready}) to the result: the JVM's start and the connections' set-up are left out, as they are from the
 * raw rows; each run is a fresh JVM, so JIT compilation during the run is in.
 */
public final class CompareDriver {

    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * How often the worker looks at its stats for the last completion: the run's time may be long by this much.
     * Not less: looking every millisecond cost the worker process a seventh of its CPU on a loaded machine.
     */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private CompareDriver() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            usage("producer | worker first");
        }
        String role = args[0];
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                usage("expected --name value, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        String url = required(options, "url");
        String queue = required(options, "queue");
        int jobs = Integer.parseInt(required(options, "jobs"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(required(options, "timeout")));
        int batch = Integer.parseInt(options.getOrDefault("batch", "1"));
        int fetch = Integer.parseInt(options.getOrDefault("fetch", "1"));
        JobfoundryClient client = JobfoundryClient.create(url);
        switch (role) {
            case "producer" -> produce(client, queue, jobs, Integer.parseInt(required(options, "producers")), batch, deadline);
            case "worker" -> work(client, queue, jobs, Integer.parseInt(required(options, "concurrency")) * fetch, deadline);
            default -> usage("role: producer | worker, not " + role);
        }
        // The JDK client's selector thread is a daemon, and the worker's threads have ended: nothing holds the JVM.
        System.exit(0);
    }

    private static void produce(JobfoundryClient client, String queue, int jobs, int threads, int batch, long deadline)
            throws Exception {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger created = new AtomicInteger();
        CountDownLatch connected = new CountDownLatch(threads);
        CountDownLatch gate = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> loops = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            loops.add(pool.submit(() -> {
                client.type(queue); // opens this thread's connection before the clock starts
                connected.countDown();
                gate.await();
                for (int first = next.getAndAdd(batch); first < jobs && System.nanoTime() < deadline;
                        first = next.getAndAdd(batch)) {
                    int count = Math.min(batch, jobs - first);
                    JobSpec spec = JobSpec.withData(Map.of("t", System.nanoTime()));
                    if (batch == 1) {
                        client.create(queue, spec);
                    } else {
                        List<NewJob> items = new ArrayList<>(count);
                        for (int i = 0; i < count; i++) {
                            items.add(NewJob.of(queue, spec));
                        }
                        client.createBatch(items);
                    }
                    created.addAndGet(count);
                }
                return null;
            }));
        }
        if (!connected.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("producers could not reach the service within 30 s");
        }
        long cpuBefore = cpuMicros();
        long startNs = System.nanoTime();
        gate.countDown();
        for (Future<?> loop : loops) {
            loop.get(); // rethrows a producer's failure: the run is void, not short
        }
        pool.shutdown();
        ObjectNode result = JSON.createObjectNode().put("event", "result").put("role", "producer")
                .put("created", created.get()).put("startNs", Long.toString(startNs))
                .put("cpuMicros", cpuMicros() - cpuBefore);
        emit(result);
    }

    private static void work(JobfoundryClient client, String queue, int jobs, int concurrency, long deadline)
            throws InterruptedException {
        AtomicLongArray latencyMicros = new AtomicLongArray(jobs);
        AtomicInteger received = new AtomicInteger();
        AtomicLong extra = new AtomicLong(); // receipts beyond `jobs`: redeliveries, which a clean run has none of
        Worker worker = Worker.builder(client, ctx -> {
            long micros = (System.nanoTime() - ctx.data().path("t").asLong()) / 1_000;
            int slot = received.getAndIncrement();
            if (slot < jobs) {
                latencyMicros.set(slot, micros);
            } else {
                extra.incrementAndGet();
            }
            return null; // succeeded, data unchanged
        }, queue).concurrency(concurrency).build().start();
        long cpuBefore = cpuMicros();
        emit(JSON.createObjectNode().put("event", "ready").put("role", "worker"));
        long lastCompleteNs = 0;
        WorkerStats stats = worker.stats();
        while (System.nanoTime() < deadline) {
            stats = worker.stats();
            if (stats.succeeded() >= jobs) {
                lastCompleteNs = System.nanoTime();
                break;
            }
            TimeUnit.NANOSECONDS.sleep(POLL_NANOS);
        }
        if (lastCompleteNs == 0) {
            lastCompleteNs = System.nanoTime();
        }
        long cpu = cpuMicros() - cpuBefore;
        ObjectNode result = JSON.createObjectNode().put("event", "result").put("role", "worker")
                .put("received", Math.min(received.get(), jobs)).put("completed", stats.succeeded())
                .put("lastCompleteNs", Long.toString(lastCompleteNs)).put("cpuMicros", cpu)
                .put("fetches", stats.acceptCalls());
        ArrayNode latencies = result.putArray("latencyMicros");
        for (int i = 0, n = Math.min(received.get(), jobs); i < n; i++) {
            latencies.add(latencyMicros.get(i));
        }
        emit(result);
        // What the library did to get there: how full its accepts and finish batches were, on stderr for the log.
        System.err.printf("java client worker: %s; %d receipts beyond the jobs created%n", stats, extra.get());
        worker.shutdown(Duration.ofSeconds(10));
    }

    private static long cpuMicros() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1_000;
    }

    private static void emit(ObjectNode event) {
        try {
            System.out.println(JSON.writeValueAsString(event));
            System.out.flush();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            usage("--" + name + " is required");
        }
        return value;
    }

    private static void usage(String problem) {
        System.err.println("CompareDriver: " + problem + "\nusage: CompareDriver producer|worker --url U --queue Q --jobs J"
                + " --timeout S [--producers N] [--concurrency W] [--batch B] [--fetch F]");
        System.exit(2);
    }
}
