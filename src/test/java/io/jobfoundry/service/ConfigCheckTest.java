package io.jobfoundry.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.api.ApiConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigCheckTest {

    @TempDir
    Path folder;

    /** The store is not opened, its file not even made, with settings the check refuses. */
    @Test
    void theStoreIsNotOpenedWithBadSettings() {
        Path file = folder.resolve("jobs.db");
        SmallRyeConfig config = config(Map.of("jobfoundry.embedded.path", file.toString(),
                "jobfoundry.api.default-page-size", "0"));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new StoreProducer().store(config.getConfigMapping(JobfoundryConfig.class),
                        config.getConfigMapping(ApiConfig.class), new SimpleMeterRegistry()));
        assertTrue(refused.getMessage().contains("jobfoundry.api.default-page-size"), refused.getMessage());
        assertFalse(Files.exists(file));
    }

    private static List<String> problems(Map<String, String> settings) {
        SmallRyeConfig config = config(settings);
        return ConfigCheck.problems(config.getConfigMapping(JobfoundryConfig.class), config.getConfigMapping(ApiConfig.class));
    }

    private static SmallRyeConfig config(Map<String, String> settings) {
        return new SmallRyeConfigBuilder()
                .withConverter(MemorySize.class, 100, new MemorySizeConverter())
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new PropertiesConfigSource(settings, "test", 500))
                .withMapping(JobfoundryConfig.class).withMapping(ApiConfig.class)
                .build();
    }

    @Test
    void theDefaultsPass() {
        assertEquals(List.of(), problems(Map.of()));
    }

    @Test
    void everySettingThatWouldBreakTheServiceIsNamed() {
        List<String> problems = problems(Map.ofEntries(
                Map.entry("jobfoundry.embedded.max-size", "0"),
                Map.entry("jobfoundry.transaction.timeout", "0s"),
                Map.entry("jobfoundry.transaction.max-attempts", "0"),
                Map.entry("jobfoundry.health.store-timeout", "-2s"),
                Map.entry("jobfoundry.monitor.activity-interval", "0s"),
                Map.entry("jobfoundry.monitor.due-interval", "1ms"),
                Map.entry("jobfoundry.monitor.retention-interval", "500ms"),
                Map.entry("jobfoundry.api.max-body-size", "0"),
                Map.entry("jobfoundry.api.max-wait", "-1s"),
                Map.entry("jobfoundry.api.events-keep-alive", "0s"),
                Map.entry("jobfoundry.api.default-page-size", "0")));
        assertEquals(List.of(
                "jobfoundry.embedded.max-size must be positive (leave it out for no limit), not 0",
                "jobfoundry.transaction.timeout must be at least 1ms, not 0s",
                "jobfoundry.transaction.max-attempts must be at least 1, not 0",
                "jobfoundry.health.store-timeout must be at least 1ms, not -2s",
                "jobfoundry.monitor.activity-interval must be at least 10ms, not 0s",
                "jobfoundry.monitor.due-interval must be at least 10ms, not 1ms",
                "jobfoundry.monitor.retention-interval must be at least 1s, not 500ms",
                "jobfoundry.api.max-body-size must be at least 2 bytes (the body {}), not 0",
                "jobfoundry.api.max-wait must be at least 0s, not -1s",
                "jobfoundry.api.default-wait-timeout (30s) must not be longer than jobfoundry.api.max-wait (-1s)",
                "jobfoundry.api.events-keep-alive must be at least 10ms, not 0s",
                "jobfoundry.api.default-page-size must be within 1..1000, not 0"), problems);
    }

    @Test
    void anFdbTransactionCannotOutliveFoundationDbsFiveSeconds() {
        assertEquals(List.of("jobfoundry.transaction.timeout must be at most 5s with jobfoundry.store=fdb"
                        + " (FoundationDB's own limit), not 10s"),
                problems(Map.of("jobfoundry.store", "fdb", "jobfoundry.transaction.timeout", "10s")));
        assertEquals(List.of(), problems(Map.of("jobfoundry.transaction.timeout", "10s")), "the embedded store has no such limit");
    }

    @Test
    void aDefaultWaitBeyondTheLongestIsRefused() {
        assertEquals(List.of("jobfoundry.api.default-wait-timeout (600s) must not be longer than jobfoundry.api.max-wait (300s)"),
                problems(Map.of("jobfoundry.api.default-wait-timeout", "10m")));
    }

    /** A mistyped switch stops the start, where MicroProfile Config would read it as false. */
    @Test
    void aSwitchIsReadAsWrittenOrRefused() {
        RuntimeException refused = assertThrows(RuntimeException.class,
                () -> config(Map.of("jobfoundry.monitor.enabled", "ture")).getConfigMapping(JobfoundryConfig.class));
        assertTrue(refused.getMessage().contains("jobfoundry.monitor.enabled"), refused.getMessage());
        assertTrue(refused.getMessage().contains("expected true or false"), refused.getMessage());
        assertFalse(config(Map.of("jobfoundry.monitor.enabled", "Off")).getConfigMapping(JobfoundryConfig.class)
                .monitor().enabled());
        assertTrue(config(Map.of("jobfoundry.monitor.enabled", "YES")).getConfigMapping(JobfoundryConfig.class)
                .monitor().enabled());
        assertTrue(config(Map.of()).getConfigMapping(JobfoundryConfig.class).monitor().enabled());
    }
}
