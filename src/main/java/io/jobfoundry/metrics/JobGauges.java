package io.jobfoundry.metrics;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.TypeInfo;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;
import org.jboss.logging.Logger;

/**
 * {@code jobfoundry.jobs{type, state}}: jobs per type and state, from the per-type counters the
 * engine keeps in the same transactions as the jobs — one small read per type, never a scan of
 * the jobs. A scrape refreshes them at most once per {@code maxAge}; a type's gauges appear at the
 * first refresh that sees it and go at the first that no longer does (the type was deleted).
 * {@code jobfoundry.job.types}, the number of types, is there from the start, so that a scrape
 * refreshes even when no type had gauges yet (a new store). {@code jobfoundry.jobs.latency{type}}
 * (seconds) is Sidekiq's queue latency: how long the longest-waiting due job has waited, from the
 * first key of the type's pending index.
 */
public final class JobGauges implements MeterBinder {

    private static final Logger LOG = Logger.getLogger(JobGauges.class);
    private static final Map<String, ToLongFunction<Counts>> STATES = Map.of(
            "pending", Counts::pending, "due", Counts::due, "running", Counts::running,
            "succeeded", Counts::succeeded, "failed", Counts::failed, "cancelled", Counts::cancelled);

    private final JobEngine engine;
    private final Duration maxAge;
    private final Map<String, Counts> counts = new ConcurrentHashMap<>();
    private final Set<String> paused = ConcurrentHashMap.newKeySet();
    /** Each type's oldest due time; absent while none is due. */
    private final Map<String, Instant> oldestDue = new ConcurrentHashMap<>();
    /** Each type's gauges, so that a deleted type's go with it. */
    private final Map<String, List<Meter>> registered = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;
    private volatile long refreshedAt;

    public JobGauges(JobEngine engine, Duration maxAge) {
        this.engine = engine;
        this.maxAge = maxAge;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("jobfoundry.job.types", this, JobGauges::types)
                .description("Job types the store knows").register(registry);
        refresh();
    }

    private double types() {
        refreshIfStale();
        return registered.size();
    }

    /**
     * Reads every type's counters now, registers the gauges of types not seen before and removes
     * those of types deleted since (by any replica).
     */
    public synchronized void refresh() {
        refreshedAt = System.nanoTime();
        try {
            List<TypeInfo> types = engine.types();
            Set<String> present = new HashSet<>();
            for (TypeInfo type : types) {
                present.add(type.type());
                counts.put(type.type(), type.counts());
                if (type.oldestDueAt() == null) {
                    oldestDue.remove(type.type());
                } else {
                    oldestDue.put(type.type(), type.oldestDueAt());
                }
                if (type.paused()) {
                    paused.add(type.type());
                } else {
                    paused.remove(type.type());
                }
                registered.computeIfAbsent(type.type(), this::register);
            }
            for (String gone : List.copyOf(registered.keySet())) {
                if (!present.contains(gone)) {
                    registered.remove(gone).forEach(registry::remove);
                    counts.remove(gone);
                    oldestDue.remove(gone);
                    paused.remove(gone);
                }
            }
        } catch (RuntimeException e) {
            // A scrape must not fail because the store is briefly away: the last counts stand.
            LOG.debugf(e, "job gauges: counts not refreshed");
        }
    }

    private List<Meter> register(String type) {
        engine.context().observer().known(type);
        List<Meter> meters = new ArrayList<>();
        STATES.forEach((state, value) -> meters.add(Gauge.builder("jobfoundry.jobs", () -> current(type, value))
                .description("Jobs by type and state (pending includes due)")
                .tags("type", type, "state", state).register(registry)));
        meters.add(Gauge.builder("jobfoundry.type.paused", () -> {
            refreshIfStale();
            return paused.contains(type) ? 1 : 0;
        }).description("1 while the type is paused (accepts hand out none of its jobs), else 0")
                .tags("type", type).register(registry));
        meters.add(Gauge.builder("jobfoundry.jobs.latency", () -> latencySeconds(type))
                .description("How long the type's longest-waiting due job has waited: now minus its due time; 0 when none is due")
                .baseUnit("seconds").tags("type", type).register(registry));
        return meters;
    }

    /** Computed at each scrape from the last refresh's oldest due time, so it grows between refreshes as the wait does. */
    private double latencySeconds(String type) {
        refreshIfStale();
        Instant due = oldestDue.get(type);
        if (due == null) {
            return 0;
        }
        Duration waited = Duration.between(due, engine.context().clock().instant());
        // Not toNanos(): it overflows past 292 years, and a job may be scheduled in year 0000.
        return waited.isNegative() ? 0 : waited.getSeconds() + waited.getNano() / 1e9;
    }

    private void refreshIfStale() {
        if (System.nanoTime() - refreshedAt > maxAge.toNanos()) {
            refresh();
        }
    }

    private double current(String type, ToLongFunction<Counts> value) {
        refreshIfStale();
        Counts now = counts.get(type);
        return now == null ? 0 : value.applyAsLong(now);
    }
}
