package io.jobfoundry.metrics;

import io.jobfoundry.jobs.context.JobObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's reports as Micrometer meters. Meters are looked up once per type and kept, so the
 * hot path (every accept and finish) costs an increment, not a registry lookup.
 */
public final class MicrometerJobObserver implements JobObserver {

    /** Bucket bounds for queue and run times: from a handoff (ms) to a long batch job (hours). */
    private static final Duration[] JOB_TIMES = {Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(25),
        Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5),
        Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ofMinutes(30),
        Duration.ofHours(1), Duration.ofHours(6)};
    /** Accept waits are bounded by the API's longest wait. */
    private static final Duration[] ACCEPT_TIMES = {Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(25),
        Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5),
        Duration.ofSeconds(15), Duration.ofSeconds(30), Duration.ofSeconds(60)};

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, TypeMeters> types = new ConcurrentHashMap<>();
    private final Timer acceptWithJobs;
    private final Timer acceptEmpty;

    public MicrometerJobObserver(MeterRegistry registry) {
        this.registry = registry;
        this.acceptWithJobs = acceptTimer("jobs");
        this.acceptEmpty = acceptTimer("none");
    }

    private Timer acceptTimer(String outcome) {
        return Timer.builder("jobfoundry.accept.wait")
                .description("How long an accept waited before it was answered, with jobs or none")
                .tag("outcome", outcome).serviceLevelObjectives(ACCEPT_TIMES).register(registry);
    }

    private final class TypeMeters {
        final Counter accepted;
        final Counter succeeded;
        final Counter failed;
        final Counter requeued;
        final Counter runsFailed;
        final Counter expired;
        final Timer waited;
        final Timer ranSucceeded;
        final Timer ranFailed;

        TypeMeters(String type) {
            accepted = Counter.builder("jobfoundry.jobs.accepted").description("Runs started by accept")
                    .tag("type", type).register(registry);
            succeeded = finished(type, "succeeded");
            failed = finished(type, "failed");
            requeued = Counter.builder("jobfoundry.jobs.requeued")
                    .description("Running jobs taken back because their processor went quiet (retried, or ended when out of attempts)")
                    .tag("type", type).register(registry);
            runsFailed = Counter.builder("jobfoundry.runs.failed")
                    .description("Runs that failed for good: their last attempt failed or went quiet (the job finished "
                            + "failed, or, repeating, went on to its next run)")
                    .tag("type", type).register(registry);
            expired = Counter.builder("jobfoundry.jobs.expired")
                    .description("Finished jobs removed by retention once their type's time to keep them was up")
                    .tag("type", type).register(registry);
            waited = Timer.builder("jobfoundry.jobs.wait")
                    .description("From a job's due time (or its creation, if later) to its start by a worker")
                    .tag("type", type).serviceLevelObjectives(JOB_TIMES).register(registry);
            ranSucceeded = run(type, "succeeded");
            ranFailed = run(type, "failed");
        }

        private Counter finished(String type, String outcome) {
            return Counter.builder("jobfoundry.jobs.finished")
                    .description("Runs a processor finished, by outcome (a failed run may be retried)")
                    .tags("type", type, "outcome", outcome).register(registry);
        }

        private Timer run(String type, String outcome) {
            return Timer.builder("jobfoundry.jobs.run").description("From a run's start to its finish")
                    .tags("type", type, "outcome", outcome).serviceLevelObjectives(JOB_TIMES).register(registry);
        }
    }

    private TypeMeters of(String type) {
        return types.computeIfAbsent(type, TypeMeters::new);
    }

    @Override
    public void known(String type) {
        of(type);
    }

    @Override
    public void accepted(String type, Duration waited) {
        TypeMeters meters = of(type);
        meters.accepted.increment();
        meters.waited.record(waited);
    }

    @Override
    public void finished(String type, boolean succeeded, Duration ran) {
        TypeMeters meters = of(type);
        (succeeded ? meters.succeeded : meters.failed).increment();
        (succeeded ? meters.ranSucceeded : meters.ranFailed).record(ran);
    }

    @Override
    public void requeued(String type, int jobs) {
        of(type).requeued.increment(jobs);
    }

    @Override
    public void runsFailed(String type, int runs) {
        of(type).runsFailed.increment(runs);
    }

    @Override
    public void expired(String type, int jobs) {
        of(type).expired.increment(jobs);
    }

    @Override
    public void acceptAnswered(Duration waited, int jobs) {
        (jobs > 0 ? acceptWithJobs : acceptEmpty).record(waited);
    }
}
