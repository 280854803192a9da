package io.jobfoundry.bench.compare;

import io.jobfoundry.bench.Crew;
import io.jobfoundry.bench.measure.CpuMeter;
import io.jobfoundry.bench.measure.Latency;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the {@link Workload} against a {@link JavaQueue}: workers connect and start fetching
 * first, then the producers connect, wait at a gate until all have, and are released together.
 * The clock starts at the gate and stops at the last completion. Producers create in batches of
 * the shape's {@code createBatch} (1 in {@code single}), workers fetch up to its {@code fetchMax}.
 */
final class JavaWorkload {

    /** A fetch waits this long for a job before the worker checks whether the run is over. */
    private static final int FETCH_WAIT_MILLIS = 1_000;

    private JavaWorkload() {
    }

    static Outcome run(JavaQueue queue, Workload workload) throws Exception {
        long deadline = System.nanoTime() + workload.limit().toNanos();
        int jobs = workload.jobs();
        int batch = workload.shape().createBatch;
        int fetchMax = workload.shape().fetchMax;
        Latency receipt = new Latency();
        AtomicInteger completed = new AtomicInteger();
        AtomicLong lastComplete = new AtomicLong();
        CountDownLatch workersConnected = new CountDownLatch(workload.workers());
        CountDownLatch producersConnected = new CountDownLatch(workload.producers());
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger nextJob = new AtomicInteger();
        AtomicInteger created = new AtomicInteger();
        AtomicLong fetches = new AtomicLong();
        double cpuBefore = CpuMeter.ownSeconds();
        try (Crew workers = Crew.start("worker", workload.workers(), w -> {
            try (JavaQueue.Worker worker = queue.worker(w)) {
                workersConnected.countDown();
                while (completed.get() < jobs && System.nanoTime() < deadline) {
                    long[] createdAt = worker.fetch(fetchMax, FETCH_WAIT_MILLIS);
                    if (createdAt.length > 0) {
                        fetches.incrementAndGet();
                        long received = System.nanoTime();
                        for (long stamp : createdAt) {
                            receipt.recordNanos(received - stamp);
                        }
                        worker.complete();
                        if (completed.addAndGet(createdAt.length) == jobs) {
                            lastComplete.set(System.nanoTime());
                        }
                    }
                }
            }
        }); Crew producers = Crew.start("producer", workload.producers(), p -> {
            try (JavaQueue.Producer producer = queue.producer()) {
                producersConnected.countDown();
                gate.await();
                // Each producer claims the next batch of job numbers, so that the run creates
                // exactly `jobs` whatever the batch size; only the last batch may be short.
                for (int first = nextJob.getAndAdd(batch); first < jobs && System.nanoTime() < deadline;
                        first = nextJob.getAndAdd(batch)) {
                    long[] stamps = new long[Math.min(batch, jobs - first)];
                    Arrays.fill(stamps, System.nanoTime());
                    producer.create(stamps);
                    created.addAndGet(stamps.length);
                }
            }
        })) {
            if (!workersConnected.await(30, TimeUnit.SECONDS) || !producersConnected.await(30, TimeUnit.SECONDS)) {
                producers.await(Duration.ZERO); // rethrows a connection failure, if that is what held them up
                workers.await(Duration.ZERO);
                throw new IllegalStateException("clients could not connect within 30 s");
            }
            long start = System.nanoTime();
            gate.countDown();
            producers.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            boolean finished = workers.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()) + 2_000_000_000L));
            long end = completed.get() == jobs ? lastComplete.get() : System.nanoTime();
            if (!finished && completed.get() == jobs) {
                throw new IllegalStateException("workers did not stop after the last job");
            }
            return new Outcome(created.get(), completed.get(), start, end, receipt,
                    CpuMeter.ownSeconds() - cpuBefore, fetches.get());
        }
    }
}
