package io.jobfoundry.bench.compare;

import io.jobfoundry.bench.Crew;
import io.jobfoundry.bench.measure.CpuMeter;
import io.jobfoundry.bench.measure.Latency;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the {@link Workload} against a {@link JavaQueue}: workers connect and start fetching
 * first, then the producers connect, wait at a gate until all have, and are released together.
 * The clock starts at the gate and stops at the last completion.
 */
final class JavaWorkload {

    /** A fetch waits this long for a job before the worker checks whether the run is over. */
    private static final int FETCH_WAIT_MILLIS = 1_000;

    private JavaWorkload() {
    }

    static Outcome run(JavaQueue queue, Workload workload) throws Exception {
        long deadline = System.nanoTime() + workload.limit().toNanos();
        int jobs = workload.jobs();
        Latency receipt = new Latency();
        AtomicInteger completed = new AtomicInteger();
        AtomicLong lastComplete = new AtomicLong();
        CountDownLatch workersConnected = new CountDownLatch(workload.workers());
        CountDownLatch producersConnected = new CountDownLatch(workload.producers());
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger nextJob = new AtomicInteger();
        AtomicInteger created = new AtomicInteger();
        double cpuBefore = CpuMeter.ownSeconds();
        try (Crew workers = Crew.start("worker", workload.workers(), w -> {
            try (JavaQueue.Worker worker = queue.worker(w)) {
                workersConnected.countDown();
                while (completed.get() < jobs && System.nanoTime() < deadline) {
                    OptionalLong createdAt = worker.fetch(FETCH_WAIT_MILLIS);
                    if (createdAt.isPresent()) {
                        receipt.recordNanos(System.nanoTime() - createdAt.getAsLong());
                        worker.complete();
                        if (completed.incrementAndGet() == jobs) {
                            lastComplete.set(System.nanoTime());
                        }
                    }
                }
            }
        }); Crew producers = Crew.start("producer", workload.producers(), p -> {
            try (JavaQueue.Producer producer = queue.producer()) {
                producersConnected.countDown();
                gate.await();
                for (int i = nextJob.getAndIncrement(); i < jobs && System.nanoTime() < deadline; i = nextJob.getAndIncrement()) {
                    producer.create(System.nanoTime());
                    created.incrementAndGet();
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
                    CpuMeter.ownSeconds() - cpuBefore);
        }
    }
}
