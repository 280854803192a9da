package io.jobfoundry.jobs.background;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.MutableClock;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How often the activity monitor runs: a tenth of the shortest activity timeout, so a quiet
 * processor's job comes back within about 1.2 timeouts whatever the timeout, within set bounds.
 */
class ActivityMonitorScheduleTest {

    private static final Duration FLOOR = Duration.ofMillis(100);
    private static final Duration LONGEST = Duration.ofSeconds(1);

    @TempDir
    Path folder;

    private KvStore store;
    private JobEngine engine;
    private ActivityMonitor monitor;

    @BeforeEach
    void open() {
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("activity.db")).withDurability(Durability.OS));
        engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), new MutableClock(java.time.Instant.parse("2026-01-01T00:00:00Z")), EngineOptions.DEFAULT);
        monitor = new ActivityMonitor(engine.context());
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void withNoTypesItRunsAtTheLongestInterval() {
        monitor.runOnce();
        assertEquals(LONGEST, monitor.nextRunWithin(FLOOR, LONGEST));
    }

    @Test
    void theShortestTimeoutSetsThePace() {
        timeout("slow", Duration.ofSeconds(30));
        timeout("quick", Duration.ofSeconds(2));
        monitor.runOnce();
        assertEquals(Duration.ofMillis(200), monitor.nextRunWithin(FLOOR, LONGEST));
    }

    @Test
    void thePaceStaysWithinItsBounds() {
        timeout("slow", Duration.ofSeconds(30));
        monitor.runOnce();
        assertEquals(LONGEST, monitor.nextRunWithin(FLOOR, LONGEST), "30 s / 10 is beyond the longest interval");

        timeout("instant", Duration.ofSeconds(1)); // the shortest timeout a type may have
        monitor.runOnce();
        Duration floor = Duration.ofMillis(150);
        assertEquals(floor, monitor.nextRunWithin(floor, LONGEST), "100 ms is below this floor");
    }

    private void timeout(String type, Duration timeout) {
        engine.configureType(type, settings -> new TypeSettings(timeout, settings.maxAttempts(), settings.highRun(),
                settings.lowRun(), settings.backoffBase(), settings.backoffMax()));
    }
}
