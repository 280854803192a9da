package io.jobfoundry.bench;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.GroupCounts;
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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Accept throughput under a per-group concurrency limit ({@code engine limits}): 1,000 groups of
 * 20 pending jobs each, workers that each keep up to {@code HOLD} jobs running (so that together
 * they want more than the limit lets run: the limit binds), finishing the oldest when they hold
 * that many or an accept comes back empty, and adding a job back to the group of each one
 * finished. The same loop runs with {@code perGroup} 2 and with no limit, each on a fresh store;
 * the figures are accepts that took a job per second, the share of accepts that found none, and
 * the most running in one group at the end (from the counters).
 * <pre>./mvnw -B -q -Pbench test-compile exec:java -Dexec.args="engine limits [accepts]"</pre>
 */
final class LimitsBench {

    private static final int GROUPS = 1_000;
    private static final int PER_GROUP_PENDING = 20;
    private static final int WORKERS = 8;
    private static final int HOLD = 400;

    private LimitsBench() {
    }

    static void run(int accepts) throws Exception {
        System.out.printf("accept throughput, %d groups x %d pending, %d workers holding up to %d running each%n",
                GROUPS, PER_GROUP_PENDING, WORKERS, HOLD);
        System.out.printf("%-14s %10s %10s %12s %14s%n", "limit", "jobs/s", "empty %", "max running", "max per group");
        measure("none", Concurrency.NONE, accepts);
        measure("perGroup 2", new Concurrency(null, 2), accepts);
        measure("none", Concurrency.NONE, accepts);
        measure("perGroup 2", new Concurrency(null, 2), accepts);
    }

    private static void measure(String label, Concurrency limits, int accepts) throws Exception {
        Path folder = Files.createTempDirectory("jobfoundry-limitsbench");
        try (KvStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("bench.db")).withDurability(Durability.OS))) {
            JobEngine engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), Clock.systemUTC(),
                    EngineOptions.DEFAULT);
            engine.configureType("bench", s -> s.withLimits(limits, null));
            for (int i = 0; i < GROUPS * PER_GROUP_PENDING; i++) {
                engine.put("bench", "job-" + i, JobChanges.NONE.withGroup("g" + (i % GROUPS)));
            }
            AtomicInteger taken = new AtomicInteger();
            AtomicLong empty = new AtomicLong();
            AtomicInteger nextId = new AtomicInteger(GROUPS * PER_GROUP_PENDING);
            AtomicInteger mostRunning = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
            List<Future<?>> futures = new ArrayList<>();
            long start = System.nanoTime();
            for (int w = 0; w < WORKERS; w++) {
                futures.add(pool.submit(() -> {
                    ArrayDeque<LeasedJob> held = new ArrayDeque<>();
                    AcceptRequest request = new AcceptRequest(List.of("bench"), 1, null, "w");
                    while (taken.get() < accepts) {
                        List<LeasedJob> got = engine.accept(request);
                        if (got.isEmpty()) {
                            empty.incrementAndGet();
                        } else {
                            held.add(got.get(0));
                            taken.incrementAndGet();
                        }
                        if (got.isEmpty() || held.size() >= HOLD) {
                            LeasedJob done = held.poll();
                            if (done != null) {
                                engine.finish("bench", done.job().id(), done.lease(), true, Change.keep(), null);
                                engine.put("bench", "job-" + nextId.getAndIncrement(),
                                        JobChanges.NONE.withGroup(done.job().group()));
                            }
                        }
                        mostRunning.accumulateAndGet(held.size(), Math::max);
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            pool.shutdown();
            long running = engine.type("bench").orElseThrow().counts().running();
            long mostInGroup = 0;
            String cursor = null;
            do {
                var page = engine.groups("bench", 1000, cursor).orElseThrow();
                for (GroupCounts group : page.groups()) {
                    mostInGroup = Math.max(mostInGroup, group.running());
                }
                cursor = page.next();
            } while (cursor != null);
            System.out.printf("%-14s %10.0f %10.1f %12d %14d%n", label, taken.get() / seconds,
                    100.0 * empty.get() / (empty.get() + taken.get()), running, mostInGroup);
        } finally {
            try (var files = Files.walk(folder)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
