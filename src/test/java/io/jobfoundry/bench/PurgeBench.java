package io.jobfoundry.bench;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.MutableClock;
import io.jobfoundry.jobs.background.JobCleaner;
import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.context.JobObserver;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.FinishItem;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.NewJob;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Retention at scale, in process on the embedded store ({@code fsync}, as the service runs): fills
 * {@code count} finished jobs (created, accepted and finished in batches of 1,000), moves the clock
 * past their retention, and runs the cleaner while one worker goes on accepting and finishing jobs
 * of another type. Reports the purge rate, and the worker's accept latency before and during the
 * purge: the cleaner's bounded transactions should leave it close to what it was.
 * <pre>./mvnw -B -q -Pbench test-compile exec:java -Dexec.args="engine purge [count]"</pre>
 */
final class PurgeBench {

    private static final int BATCH = 1_000;

    private PurgeBench() {
    }

    static void run(int count) throws Exception {
        Path folder = Files.createTempDirectory("jobfoundry-purgebench");
        try (KvStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("bench.db"))
                .withDurability(Durability.FSYNC))) {
            MutableClock clock = new MutableClock(Instant.now());
            EngineContext context = new EngineContext(new TransactionRunner(store, RetryPolicy.DEFAULT), clock,
                    JobObserver.NONE);
            JobEngine engine = new JobEngine(context.runner(), clock, EngineOptions.DEFAULT);
            long filling = System.nanoTime();
            fill(engine, count);
            System.out.printf("filled %,d finished jobs in %.0f s%n", count, (System.nanoTime() - filling) / 1e9);

            long[] before = acceptLatencies(engine, 2_000, new AtomicBoolean(true));
            clock.advance(Duration.ofDays(1).plusMinutes(1)); // past the default retention of successes
            AtomicBoolean purging = new AtomicBoolean(true);
            CompletableFuture<long[]> during = CompletableFuture.supplyAsync(() -> acceptLatencies(engine,
                    Integer.MAX_VALUE, purging));
            long start = System.nanoTime();
            Map<String, Integer> removed = new JobCleaner(context).runOnce();
            double seconds = (System.nanoTime() - start) / 1e9;
            purging.set(false);
            long[] whilePurging = during.get();

            int gone = removed.getOrDefault("done", 0);
            System.out.printf("purged %,d jobs in %.1f s: %,.0f jobs/s; counts after: %s%n", gone, seconds,
                    gone / seconds, engine.type("done").orElseThrow().counts());
            System.out.printf("%-16s %8s %10s %10s %10s%n", "accept+finish", "samples", "p50 µs", "p99 µs", "max µs");
            print("before the purge", before);
            print("during the purge", whilePurging);
        } finally {
            try (var files = Files.walk(folder)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** {@code count} jobs of type "done", finished {@code succeeded}, through the batch calls. */
    private static void fill(JobEngine engine, int count) {
        for (int from = 0; from < count; from += BATCH) {
            List<NewJob> jobs = new ArrayList<>(BATCH);
            for (int i = from; i < Math.min(count, from + BATCH); i++) {
                jobs.add(new NewJob("done", "job-" + i, JobChanges.NONE));
            }
            engine.batches().createAll(jobs).join();
            List<FinishItem> finishes = new ArrayList<>(BATCH);
            for (int taken = 0; taken < jobs.size(); ) {
                List<LeasedJob> leased = engine.accept(new AcceptRequest(List.of("done"), AcceptRequest.MAX_JOBS,
                        null, "filler"));
                for (LeasedJob job : leased) {
                    finishes.add(new FinishItem("done", job.job().id(), job.lease(), true, Change.keep(), null));
                }
                taken += leased.size();
            }
            engine.batches().finishAll(finishes).join();
        }
    }

    /** One worker's accept latency (an accept, a finish and a new job per sample) while {@code go} holds. */
    private static long[] acceptLatencies(JobEngine engine, int most, AtomicBoolean go) {
        AcceptRequest request = new AcceptRequest(List.of("live"), 1, null, "w");
        long[] nanos = new long[1 << 16];
        int n = 0;
        engine.put("live", "seed", JobChanges.NONE);
        for (int i = 0; i < most && go.get() && n < nanos.length; i++) {
            long start = System.nanoTime();
            LeasedJob leased = engine.accept(request).get(0);
            nanos[n++] = System.nanoTime() - start;
            engine.finish("live", leased.job().id(), leased.lease(), true, Change.keep(), null);
            engine.put("live", "j" + System.nanoTime(), JobChanges.NONE);
        }
        return Arrays.copyOf(nanos, n);
    }

    private static void print(String label, long[] nanos) {
        Arrays.sort(nanos);
        System.out.printf("%-16s %8d %10.0f %10.0f %10.0f%n", label, nanos.length, nanos[nanos.length / 2] / 1e3,
                nanos[(int) (nanos.length * 0.99)] / 1e3, nanos[nanos.length - 1] / 1e3);
    }
}
