package io.jobfoundry.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobGaugesTest {

    @TempDir
    Path folder;

    /** A scrape reads every meter: the types gauge alone must bring in types made after startup. */
    @Test
    void aTypeMadeAfterStartingOnANewStoreGetsItsGauges() {
        try (EmbeddedStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")))) {
            JobEngine engine = engine(store, Clock.systemUTC());
            SimpleMeterRegistry registry = gauged(engine);
            assertNull(registry.find("jobfoundry.jobs").gauge(), "no types yet");

            engine.put("fresh", "a", JobChanges.NONE);
            scrape(registry);

            Gauge pending = registry.find("jobfoundry.jobs").tags("type", "fresh", "state", "pending").gauge();
            assertNotNull(pending, "the new type's gauges");
            assertEquals(1, pending.value());
            assertEquals(1, registry.find("jobfoundry.job.types").gauge().value());

            Gauge paused = registry.find("jobfoundry.type.paused").tags("type", "fresh").gauge();
            assertEquals(0, paused.value());
            engine.pause("fresh", true);
            assertEquals(1, paused.value(), "a paused type shows as 1");
        }
    }

    /** A deleted type's gauges go at the next refresh, so no series of it lingers at zero; its next job brings them back. */
    @Test
    void aDeletedTypesGaugesGoAndComeBackWithItsNextJob() {
        try (EmbeddedStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")))) {
            JobEngine engine = engine(store, Clock.systemUTC());
            SimpleMeterRegistry registry = gauged(engine);
            engine.put("typo", "a", JobChanges.NONE);
            engine.put("kept", "k", JobChanges.NONE);
            scrape(registry);
            assertEquals(8, registry.find("jobfoundry.jobs").tags("type", "typo").gauges().size()
                    + registry.find("jobfoundry.type.paused").tags("type", "typo").gauges().size()
                    + registry.find("jobfoundry.jobs.latency").tags("type", "typo").gauges().size());

            engine.remove("typo", "a");
            engine.deleteType("typo");
            scrape(registry);
            assertEquals(List.of(), registry.getMeters().stream()
                    .filter(meter -> "typo".equals(meter.getId().getTag("type"))).toList());
            assertEquals(1, registry.find("jobfoundry.job.types").gauge().value());
            assertEquals(1, registry.find("jobfoundry.jobs").tags("type", "kept", "state", "pending").gauge().value());

            engine.put("typo", "b", JobChanges.NONE);
            scrape(registry);
            assertEquals(1, registry.find("jobfoundry.jobs").tags("type", "typo", "state", "pending").gauge().value());
        }
    }

    /**
     * A restarted service's counters are there at zero before anything moves: the jobs the activity
     * monitor takes back after a crash are then an increase a rate or an alert sees, not the
     * baseline of a series that first appeared with them.
     */
    @Test
    void theCountersOfTypesAlreadyInTheStoreStartAtZero() {
        try (EmbeddedStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")))) {
            TransactionRunner runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
            new JobEngine(runner, Clock.systemUTC(), EngineOptions.DEFAULT).put("held", "a", JobChanges.NONE);

            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            JobEngine restarted = new JobEngine(runner, Clock.systemUTC(), EngineOptions.DEFAULT,
                    new MicrometerJobObserver(registry));
            new JobGauges(restarted, Duration.ZERO).bindTo(registry);

            for (String counter : List.of("jobfoundry.jobs.requeued", "jobfoundry.runs.failed", "jobfoundry.jobs.accepted",
                    "jobfoundry.jobs.expired")) {
                assertEquals(0, registry.find(counter).tags("type", "held").counter().count(), counter);
            }
            assertEquals(2, registry.find("jobfoundry.jobs.finished").tags("type", "held").counters().size());
        }
    }

    /** The wait of a job due in year 0000 (which the API takes) is some 2,000 years, not an overflow. */
    @Test
    void aJobDueCenturiesAgoHasWaitedThatLong() {
        Instant now = Instant.parse("2026-11-27T12:00:00Z");
        Instant due = Instant.parse("0000-01-01T00:00:00Z");
        try (EmbeddedStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")))) {
            JobEngine engine = engine(store, Clock.fixed(now, ZoneOffset.UTC));
            SimpleMeterRegistry registry = gauged(engine);
            engine.put("ancient", "a", JobChanges.NONE.withScheduledAt(due));
            scrape(registry);

            Gauge latency = registry.find("jobfoundry.jobs.latency").tags("type", "ancient").gauge();
            assertNotNull(latency);
            assertEquals(Duration.between(due, now).getSeconds(), latency.value(), 1.0);
        }
    }

    private static JobEngine engine(EmbeddedStore store, Clock clock) {
        return new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), clock, EngineOptions.DEFAULT);
    }

    /** A registry with the engine's job gauges bound, refreshed at every read. */
    private static SimpleMeterRegistry gauged(JobEngine engine) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new JobGauges(engine, Duration.ZERO).bindTo(registry);
        return registry;
    }

    private static void scrape(SimpleMeterRegistry registry) {
        registry.getMeters().forEach(meter -> meter.measure().forEach(measurement -> measurement.getValue()));
    }
}
