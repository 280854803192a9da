package io.jobfoundry.bench.load;

import io.jobfoundry.bench.client.Accepted;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.measure.CpuMeter;
import io.jobfoundry.bench.measure.Latency;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Scenario 7, idle types: what types nobody uses cost. Types are made by any add, a typo
 * included, and never go, while the background monitors (the due waker, the activity monitor)
 * visit every type. For a store without such types and again after {@code --types} empty ones:
 * the service's CPU while nothing happens ({@code --server-pid}), and how late a job scheduled a
 * second ahead reaches a worker waiting for it.
 */
final class IdleTypesScenario {

    private final LoadTarget target;
    private final int types;
    private final int idleSeconds;
    private final int samples;
    private final long serverPid;

    IdleTypesScenario(LoadTarget target, int types, int idleSeconds, int samples, long serverPid) {
        this.target = target;
        this.types = types;
        this.idleSeconds = idleSeconds;
        this.samples = samples;
        this.serverPid = serverPid;
    }

    void run() throws Exception {
        System.out.printf("idle types: service CPU over %d s with nothing to do, and a scheduled job's lateness "
                + "(%d jobs, each due 1 s after its create), before and after %,d empty types%n", idleSeconds, samples, types);
        measure("before");
        String prefix = LoadTarget.freshType("idle");
        try (JobfoundryClient client = target.connect()) {
            for (int i = 0; i < types; i++) {
                client.configureType(prefix + "-" + i, "{}");
            }
        }
        measure("after");
    }

    private void measure(String label) throws Exception {
        Optional<CpuMeter> cpu = serverPid > 0 ? CpuMeter.start(serverPid) : Optional.empty();
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(idleSeconds));
        String idle = cpu.map(meter -> String.format("%.1f ms of CPU per second", meter.seconds() * 1000 / idleSeconds))
                .orElse("CPU n/a (no --server-pid)");
        Latency late = new Latency();
        String type = LoadTarget.freshType("idle-due");
        try (JobfoundryClient producer = target.connect(); JobfoundryClient worker = target.connect()) {
            for (int i = 0; i < samples; i++) {
                Instant due = Instant.now().plusSeconds(1);
                producer.create(type, "{\"scheduledAt\":\"" + due + "\"}");
                List<Accepted> got = worker.accept(type, 1, 10_000, "idle-bench");
                long receivedMicros = TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis());
                if (got.isEmpty()) {
                    throw new IllegalStateException("a job due in 1 s did not come within 10 s");
                }
                late.recordMicros(receivedMicros - TimeUnit.MILLISECONDS.toMicros(due.toEpochMilli()));
                worker.finish(got.get(0));
            }
        }
        System.out.printf("  %-6s %s; due → receipt %s%n", label, idle, late.percentiles().line());
    }
}
