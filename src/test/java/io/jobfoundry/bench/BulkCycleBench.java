package io.jobfoundry.bench;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.FinishItem;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.NewJob;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bulk workload's store work without HTTP ({@code engine bulk}): producers create jobs in
 * batches of 100, workers accept up to 16 at a time and finish them in one batch, on the embedded
 * store, as {@code WORKLOAD=bulk bench/compare.sh} drives the service (the accepts block until a
 * job is ready). There the store's one committer thread is the busiest thread of the service, and
 * most of its time is SQLite's own
 * (docs/benchmarks.md); this isolates what a change to the engine or the store does to it, with
 * none of the HTTP layer's noise. Prints, per round, jobs per second and the committer's CPU per
 * job (the thread's own CPU time); the first rounds warm the JIT up.
 * <pre>./mvnw -B -q -Pbench test-compile exec:java -Dexec.args="engine bulk [jobs per round] [rounds]"</pre>
 */
final class BulkCycleBench {

    private static final int PRODUCERS = 4;
    private static final int WORKERS = 16;
    private static final int CREATE_BATCH = 100;
    private static final int ACCEPT_MAX = 16;
    private static final int WARM_UP_ROUNDS = 5;
    /** The workers' accepts block up to this long, as the comparison's workers do. */
    private static final Duration WAIT = Duration.ofSeconds(1);

    private BulkCycleBench() {
    }

    static void run(int jobs, int rounds) throws Exception {
        Path folder = Files.createTempDirectory("jobfoundry-bulkbench");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ScheduledExecutorService pool = Executors.newScheduledThreadPool(2);
        try (KvStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("bench.db")).withDurability(Durability.OS))) {
            JobEngine plain = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), Clock.systemUTC(),
                    EngineOptions.DEFAULT);
            // Wired as the service wires it: blocked accepts wait in the dispatcher, and a create
            // hands its job to a waiting worker.
            JobWaits waits = new JobWaits(plain.accepting(), pool, pool);
            JobEngine engine = plain.withWaiters(waits);
            long committer = committerThread();
            System.out.printf("bulk cycle on the embedded store (os): %d producers creating %d per batch, %d workers"
                    + " accepting up to %d and finishing them in one batch; %d jobs a round%n",
                    PRODUCERS, CREATE_BATCH, WORKERS, ACCEPT_MAX, jobs);
            System.out.printf("%-10s %10s %22s%n", "round", "jobs/s", "committer CPU µs/job");
            for (int round = 1; round <= WARM_UP_ROUNDS + rounds; round++) {
                long cpuBefore = threads.getThreadCpuTime(committer);
                long start = System.nanoTime();
                long end = cycle(engine, waits, jobs);
                double seconds = (end - start) / 1e9;
                double cpuMicros = (threads.getThreadCpuTime(committer) - cpuBefore) / 1e3 / jobs;
                System.out.printf("%-10s %10.0f %22.1f%n", round <= WARM_UP_ROUNDS ? "warm-up " + round : "" + round,
                        jobs / seconds, cpuMicros);
            }
            waits.close();
        } finally {
            pool.shutdownNow();
            try (var files = Files.walk(folder)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Runs one round; answers when its last job finished (idle workers' last waits not counted). */
    private static long cycle(JobEngine engine, JobWaits waits, int jobs) throws Exception {
        AtomicInteger toCreate = new AtomicInteger(jobs);
        AtomicInteger finished = new AtomicInteger();
        AtomicLong lastFinish = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS + WORKERS);
        List<Future<?>> futures = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            futures.add(pool.submit(() -> {
                int batch;
                while ((batch = Math.min(CREATE_BATCH, toCreate.getAndAdd(-CREATE_BATCH))) > 0) {
                    List<NewJob> items = new ArrayList<>(batch);
                    for (int i = 0; i < batch; i++) {
                        items.add(new NewJob("bench", null, JobChanges.NONE.withData("{\"n\":" + i + "}")));
                    }
                    Futures.join(engine.batches().createAll(items));
                }
                return null;
            }));
        }
        AcceptRequest request = new AcceptRequest(List.of("bench"), ACCEPT_MAX, null, "w");
        for (int w = 0; w < WORKERS; w++) {
            futures.add(pool.submit(() -> {
                while (finished.get() < jobs) {
                    List<LeasedJob> got = waits.accept(request, WAIT).toCompletableFuture().get();
                    if (got.isEmpty()) {
                        continue;
                    }
                    List<FinishItem> items = new ArrayList<>(got.size());
                    for (LeasedJob leased : got) {
                        items.add(new FinishItem("bench", leased.job().id(), leased.lease(), true, Change.keep(), null));
                    }
                    Futures.join(engine.batches().finishAll(items));
                    if (finished.addAndGet(got.size()) == jobs) {
                        lastFinish.set(System.nanoTime());
                    }
                }
                return null;
            }));
        }
        for (Future<?> future : futures) {
            future.get();
        }
        pool.shutdown();
        return lastFinish.get();
    }

    private static long committerThread() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(EmbeddedStore.COMMITTER_THREAD)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no thread named " + EmbeddedStore.COMMITTER_THREAD))
                .getId();
    }
}
