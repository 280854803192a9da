package io.jobfoundry.push;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Push calls as Micrometer meters, per type: calls by how they ended ({@code 2xx} ... {@code 5xx},
 * {@code timeout}, {@code error}: no answer, or one too large), their latency, and the calls in
 * flight on this replica. Meters are made once per type and kept, as types are.
 */
public final class PushMetrics {

    /** Latency buckets: from a target answering at once (ms) to the longest sensible timeouts. */
    private static final Duration[] CALL_TIMES = {Duration.ofMillis(5), Duration.ofMillis(25), Duration.ofMillis(100),
        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(30),
        Duration.ofMinutes(2), Duration.ofMinutes(10)};

    private final MeterRegistry registry;
    private final ConcurrentHashMap<String, TypeMeters> types = new ConcurrentHashMap<>();

    public PushMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A type's meters; its in-flight count and concurrency are the ones its lane keeps. */
    final class TypeMeters {
        final AtomicInteger inFlight = new AtomicInteger();
        /** The type's push.concurrency as this replica applies it; 0 while it does not push. */
        final AtomicInteger concurrency = new AtomicInteger();
        private final ConcurrentHashMap<String, Counter> calls = new ConcurrentHashMap<>();
        private final Timer latency;
        private final String type;

        private TypeMeters(String type) {
            this.type = type;
            latency = Timer.builder("jobfoundry.push.latency")
                    .description("From a push call's start to its answer (or its timeout or error)")
                    .tag("type", type).serviceLevelObjectives(CALL_TIMES).register(registry);
            Gauge.builder("jobfoundry.push.in.flight", inFlight, AtomicInteger::get)
                    .description("Push calls in flight on this replica").tag("type", type).register(registry);
            // Beside in_flight, so that a target at its limit is one comparison: in_flight >= concurrency.
            Gauge.builder("jobfoundry.push.concurrency", concurrency, AtomicInteger::get)
                    .description("The type's push.concurrency on this replica; 0 while it does not push")
                    .tag("type", type).register(registry);
        }

        void called(String outcome, Duration took) {
            calls.computeIfAbsent(outcome, o -> Counter.builder("jobfoundry.push.calls")
                    .description("Push calls made by this replica, by how they ended").tag("type", type)
                    .tag("outcome", o).register(registry)).increment();
            latency.record(took);
        }
    }

    TypeMeters of(String type) {
        return types.computeIfAbsent(type, TypeMeters::new);
    }

    /** The outcome tag of an answer's status. */
    static String statusClass(int status) {
        return status >= 200 && status < 600 ? (status / 100) + "xx" : "error";
    }
}
