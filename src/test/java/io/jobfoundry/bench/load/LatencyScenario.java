package io.jobfoundry.bench.load;

import io.jobfoundry.bench.Crew;
import io.jobfoundry.bench.client.Accepted;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.measure.Latency;
import io.jobfoundry.bench.measure.Millis;
import io.jobfoundry.bench.measure.Percentiles;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Scenario 3, latency: creates arrive open-loop at a fixed rate while the workers wait in a
 * blocking accept; the figure is the time from a job's creation to a worker holding it.
 * <p>
 * Open loop means job {@code i} is due at {@code start + i/rate} whatever happened before, and
 * its latency is counted from that due time — not from when a producer got round to sending it.
 * A service that falls behind therefore shows it in the percentiles instead of quietly slowing
 * the producers down (coordinated omission). The achieved rate is printed beside the target.
 * <p>
 * A producer parks until shortly before its job is due and spins the rest: parked to the due time,
 * the producers woke 0.10–0.13 ms late (p50) on the 2-core VM, which the figure would have
 * counted as the service's. The spin is at most a tenth of the interval between jobs, so it takes
 * at most a tenth of a core at any rate. How late the producers still were is printed too.
 * <p>
 * Each producer connection sends one create at a time, so the connections are scaled with the
 * rate (one per {@value #CREATES_PER_CONNECTION} jobs/s, never fewer than {@code --producers}):
 * with too few, the bench rather than the service would be what falls behind.
 */
final class LatencyScenario {

    private static final int ACCEPT_WAIT_MILLIS = 1_000;
    /** The rate of the unrecorded warm-up: enough calls for both JVMs' compilers to settle. */
    private static final int WARM_UP_RATE = 2_000;
    /** A create takes 2–5 ms on the 2-core machine under load: 200/s per connection leaves room. */
    private static final int CREATES_PER_CONNECTION = 200;
    /** The longest a producer spins before a job's due time instead of parking. */
    private static final long MAX_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(200);

    private final LoadTarget target;
    private final int[] rates;
    private final int seconds;
    private final int warmUpSeconds;

    LatencyScenario(LoadTarget target, int[] rates, int seconds, int warmUpSeconds) {
        this.target = target;
        this.rates = rates;
        this.seconds = seconds;
        this.warmUpSeconds = warmUpSeconds;
    }

    void run() throws Exception {
        System.out.printf("latency: open-loop creates for %d s per rate, %d workers waiting in accept (max=1, wait %d ms)%n",
                seconds, target.workers, ACCEPT_WAIT_MILLIS);
        // Unrecorded: the first tens of thousands of calls of a fresh JVM (client or service) pay
        // for JIT compilation; measured, C2 took a third of the service's CPU after 2,000 jobs.
        if (warmUpSeconds > 0) {
            measure(WARM_UP_RATE, warmUpSeconds);
        }
        System.out.printf("%8s %10s %12s   %s%n", "rate/s", "achieved", "connections", "creation→receipt");
        for (int rate : rates) {
            Result result = measure(rate, seconds);
            System.out.printf("%8d %10.0f %12d   %s%s%n", rate, result.achieved, connections(rate), result.receipt.line(),
                    result.received < result.total
                            ? String.format("  — only %d of %d received in time", result.received, result.total) : "");
            System.out.printf("%8s %10s %12s   producers late: p50 %s  p99 %s%n", "", "", "",
                    Millis.format(result.lateness.p50()), Millis.format(result.lateness.p99()));
        }
    }

    private int connections(int rate) {
        return Math.max(target.producers, (rate + CREATES_PER_CONNECTION - 1) / CREATES_PER_CONNECTION);
    }

    private record Result(int total, int received, double achieved, Percentiles receipt, Percentiles lateness) {
    }

    private Result measure(int rate, int forSeconds) throws Exception {
        String type = LoadTarget.freshType("latency");
        int total = rate * forSeconds;
        Latency receipt = new Latency();
        Latency lateness = new Latency();
        AtomicInteger received = new AtomicInteger();
        long deadline = System.nanoTime() + Duration.ofSeconds(forSeconds).plus(target.phaseLimit).toNanos();
        try (Crew workers = Crew.start("worker", target.workers, w -> {
            try (JobfoundryClient client = target.connect()) {
                while (received.get() < total && System.nanoTime() < deadline) {
                    for (Accepted job : client.accept(type, 1, ACCEPT_WAIT_MILLIS, "w" + w)) {
                        receipt.recordNanos(System.nanoTime() - job.createdNanos());
                        received.incrementAndGet();
                        client.finish(job);
                    }
                }
            }
        })) {
            // Pacing, not synchronization: give every worker time to be parked in its accept.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
            AtomicInteger next = new AtomicInteger();
            AtomicLong lastSent = new AtomicLong();
            long start = System.nanoTime();
            long interval = 1_000_000_000L / rate;
            long spin = Math.min(MAX_SPIN_NANOS, interval / 10);
            try (Crew producers = Crew.start("producer", connections(rate), p -> {
                try (JobfoundryClient client = target.connect()) {
                    for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                        long due = start + i * interval;
                        long spinFrom = due - spin;
                        for (long wait = spinFrom - System.nanoTime(); wait > 0; wait = spinFrom - System.nanoTime()) {
                            LockSupport.parkNanos(wait);
                        }
                        while (System.nanoTime() < due) {
                            Thread.onSpinWait();
                        }
                        lateness.recordNanos(System.nanoTime() - due);
                        client.create(type, JobfoundryClient.stampedBody(due, null));
                        lastSent.accumulateAndGet(System.nanoTime(), Math::max);
                    }
                }
            })) {
                producers.await(Duration.ofNanos(deadline - System.nanoTime()));
            }
            workers.await(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            double achieved = next.get() >= total ? total / ((lastSent.get() - start) / 1e9) : Double.NaN;
            return new Result(total, received.get(), achieved, receipt.percentiles(), lateness.percentiles());
        }
    }
}
