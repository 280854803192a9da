package io.jobfoundry.service;

import io.jobfoundry.api.ApiConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses to start on settings that would start a broken service: a zero or negative timeout or
 * interval (readiness never up, monitors spinning the store in a loop, keep-alive comments by the
 * thousand), a wait limit no accept can meet, a body limit no request fits. Each problem is named
 * by its property, all of them at once. Types and ranges the settings' own types cannot express
 * are checked here; the rest (a duration that does not parse, an unknown durability) Quarkus
 * already refuses.
 */
final class ConfigCheck {

    /** The shortest interval a monitor or a keep-alive may have: shorter is a busy loop. */
    static final Duration SHORTEST_INTERVAL = Duration.ofMillis(10);

    /** The longest a FoundationDB transaction lives. */
    static final Duration FDB_LONGEST = Duration.ofSeconds(5);

    private ConfigCheck() {
    }

    /** Called before the store opens (StoreProducer), so that nothing is touched with bad settings. */
    static void require(JobfoundryConfig config, ApiConfig api) {
        List<String> problems = problems(config, api);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid configuration: " + String.join("; ", problems));
        }
    }

    static List<String> problems(JobfoundryConfig config, ApiConfig api) {
        List<String> problems = new ArrayList<>();
        config.embedded().maxSize().ifPresent(size -> {
            if (size.asLongValue() <= 0) {
                problems.add("jobfoundry.embedded.max-size must be positive (leave it out for no limit), not "
                        + size.asLongValue());
            }
        });
        atLeast(problems, "jobfoundry.transaction.timeout", config.transaction().timeout(), Duration.ofMillis(1));
        if (config.store() == JobfoundryConfig.StoreKind.FDB && config.transaction().timeout().compareTo(FDB_LONGEST) > 0) {
            // FoundationDB ends every transaction at 5 s (transaction_too_old) whatever the timeout says.
            problems.add("jobfoundry.transaction.timeout must be at most " + text(FDB_LONGEST)
                    + " with jobfoundry.store=fdb (FoundationDB's own limit), not " + text(config.transaction().timeout()));
        }
        if (config.transaction().maxAttempts() < 1) {
            problems.add("jobfoundry.transaction.max-attempts must be at least 1, not " + config.transaction().maxAttempts());
        }
        atLeast(problems, "jobfoundry.health.store-timeout", config.health().storeTimeout(), Duration.ofMillis(1));
        atLeast(problems, "jobfoundry.monitor.activity-interval", config.monitor().activityInterval(), SHORTEST_INTERVAL);
        atLeast(problems, "jobfoundry.monitor.due-interval", config.monitor().dueInterval(), SHORTEST_INTERVAL);
        // Quarkus' scheduler runs an "every" under a second not at all (it logs a warning and goes on).
        atLeast(problems, "jobfoundry.monitor.retention-interval", config.monitor().retentionInterval(),
                Duration.ofSeconds(1));
        if (api.maxBodySize().asLongValue() < 2) {
            problems.add("jobfoundry.api.max-body-size must be at least 2 bytes (the body {}), not "
                    + api.maxBodySize().asLongValue());
        }
        atLeast(problems, "jobfoundry.api.max-wait", api.maxWait(), Duration.ZERO);
        atLeast(problems, "jobfoundry.api.default-wait-timeout", api.defaultWaitTimeout(), Duration.ZERO);
        if (api.defaultWaitTimeout().compareTo(api.maxWait()) > 0) {
            problems.add("jobfoundry.api.default-wait-timeout (" + text(api.defaultWaitTimeout())
                    + ") must not be longer than jobfoundry.api.max-wait (" + text(api.maxWait()) + ")");
        }
        atLeast(problems, "jobfoundry.api.events-keep-alive", api.eventsKeepAlive(), SHORTEST_INTERVAL);
        if (api.defaultPageSize() < 1 || api.defaultPageSize() > 1000) {
            problems.add("jobfoundry.api.default-page-size must be within 1..1000, not " + api.defaultPageSize());
        }
        return problems;
    }

    private static void atLeast(List<String> problems, String name, Duration value, Duration least) {
        if (value.compareTo(least) < 0) {
            problems.add(name + " must be at least " + text(least) + ", not " + text(value));
        }
    }

    /** As the settings are written: {@code 10ms}, {@code -2s}. */
    static String text(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }
}
