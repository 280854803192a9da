package io.jobfoundry.bench;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine on the embedded store, in process (no HTTP):
 * <ul>
 *   <li>{@code scale}: accept latency with 1,000 and with 1,000,000 pending jobs spread over
 *       10,000 groups — accept reads a bounded number of keys, so the two should match;</li>
 *   <li>{@code purge}: the cleaner removing 1,000,000 finished jobs past their retention while a
 *       worker goes on ({@link PurgeBench});</li>
 *   <li>{@code noisy}: 90% of the jobs from one group, the rest from 20 small groups, 8 workers
 *       draining them: each group's p95 wait from creation to accept;</li>
 *   <li>{@code limits}: accept throughput with 1,000 groups each limited to 2 running, against
 *       no limit ({@link LimitsBench});</li>
 *   <li>{@code bulk}: the bulk workload's creates, accepts and finishes, and what they cost the
 *       store's committer thread ({@link BulkCycleBench}).</li>
 * </ul>
 * <pre>./mvnw -B -q -Pbench test-compile exec:java -Dexec.args="engine scale|noisy|purge|limits|bulk [count]"</pre>
 */
public final class EngineBench {

    private EngineBench() {
    }

    public static void main(String[] args) throws Exception {
        String scenario = args.length > 0 ? args[0] : "scale";
        switch (scenario) {
            case "scale" -> scale(args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000);
            case "noisy" -> noisy();
            case "purge" -> PurgeBench.run(args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000);
            case "limits" -> LimitsBench.run(args.length > 1 ? Integer.parseInt(args[1]) : 40_000);
            case "bulk" -> BulkCycleBench.run(args.length > 1 ? Integer.parseInt(args[1]) : 50_000,
                    args.length > 2 ? Integer.parseInt(args[2]) : 5);
            default -> throw new IllegalArgumentException("scenario: scale | noisy | purge | limits | bulk");
        }
    }

    private static void scale(int big) throws Exception {
        System.out.printf("accept + finish latency (µs), one worker, jobs over 10,000 groups%n");
        System.out.printf("%10s %10s %10s %10s%n", "pending", "p50", "p99", "mean");
        double small = measureAccept(1_000);
        double large = measureAccept(big);
        System.out.printf("ratio p50 %d/1000 pending: %.2f%n", big, large / small);
    }

    /** Answers the p50 accept latency in microseconds. */
    private static double measureAccept(int pending) throws Exception {
        Path folder = Files.createTempDirectory("jobfoundry-enginebench");
        try (KvStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("bench.db")).withDurability(Durability.OS))) {
            JobEngine engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), Clock.systemUTC(),
                    EngineOptions.DEFAULT);
            fill(engine, pending, 10_000);
            int samples = 3_000;
            long[] nanos = new long[samples];
            AcceptRequest request = new AcceptRequest(List.of("bench"), 1, null, "w");
            for (int i = -500; i < samples; i++) {
                long start = System.nanoTime();
                List<LeasedJob> jobs = engine.accept(request);
                long took = System.nanoTime() - start;
                LeasedJob leased = jobs.get(0);
                engine.finish("bench", leased.job().id(), leased.lease(), true, Change.keep(), null);
                engine.put("bench", leased.job().id() + "-again", JobChanges.NONE.withGroup(leased.job().group()));
                if (i >= 0) {
                    nanos[i] = took;
                }
            }
            Arrays.sort(nanos);
            double p50 = nanos[samples / 2] / 1e3;
            System.out.printf("%10d %10.0f %10.0f %10.0f%n", pending, p50, nanos[samples * 99 / 100] / 1e3,
                    Arrays.stream(nanos).average().orElse(0) / 1e3);
            return p50;
        } finally {
            delete(folder);
        }
    }

    private static void fill(JobEngine engine, int count, int groups) throws Exception {
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicInteger next = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            futures.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                    engine.put("bench", "job-" + i, JobChanges.NONE.withGroup("g" + (i % groups)));
                }
                return null;
            }));
        }
        for (Future<?> future : futures) {
            future.get();
        }
        pool.shutdown();
    }

    private static void noisy() throws Exception {
        Path folder = Files.createTempDirectory("jobfoundry-enginebench");
        try (KvStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("bench.db")).withDurability(Durability.OS))) {
            JobEngine engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), Clock.systemUTC(),
                    EngineOptions.DEFAULT);
            int total = 20_000;
            for (int i = 0; i < total; i++) {
                String group = i % 10 == 0 ? "small-" + (i / 10 % 20) : "big";
                engine.put("noisy", group + "-" + i, JobChanges.NONE.withGroup(group));
            }
            // Every job is queued when the workers start: the wait is how long each stood in line.
            long start = System.nanoTime();
            Map<String, List<Long>> waits = new ConcurrentHashMap<>();
            ExecutorService workers = Executors.newFixedThreadPool(8);
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                futures.add(workers.submit(() -> {
                    AcceptRequest request = new AcceptRequest(List.of("noisy"), 1, null, "w");
                    while (true) {
                        List<LeasedJob> jobs = engine.accept(request);
                        if (jobs.isEmpty()) {
                            return null;
                        }
                        LeasedJob leased = jobs.get(0);
                        long waited = System.nanoTime() - start;
                        String group = leased.job().group().startsWith("small") ? "small groups" : "big group";
                        waits.computeIfAbsent(group, g -> java.util.Collections.synchronizedList(new ArrayList<>())).add(waited);
                        engine.finish("noisy", leased.job().id(), leased.lease(), true, Change.keep(), null);
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
            workers.shutdown();
            System.out.printf("noisy neighbour: %d jobs queued (90%% group 'big', 10%% over 20 small groups), then 8 workers drain them%n", total);
            for (Map.Entry<String, List<Long>> entry : waits.entrySet()) {
                long[] sorted = entry.getValue().stream().mapToLong(Long::longValue).sorted().toArray();
                System.out.printf("%-13s jobs %6d  wait p50 %8.1f ms  p95 %8.1f ms%n", entry.getKey(), sorted.length,
                        sorted[sorted.length / 2] / 1e6, sorted[sorted.length * 95 / 100] / 1e6);
            }
        } finally {
            delete(folder);
        }
    }

    private static void delete(Path folder) throws Exception {
        try (var files = Files.walk(folder)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
