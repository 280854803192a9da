package io.jobfoundry.jobs.background;

import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.records.JobRecord;
import io.jobfoundry.jobs.records.Runs;
import io.jobfoundry.jobs.records.TypeRegistry;
import io.jobfoundry.kv.KeyValue;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Re-enqueues running jobs whose processor has gone quiet (couch_jobs' activity monitor).
 *
 * <p>It never compares a stored time with this machine's clock. Each run notes the type's latest
 * activity versionstamp (commit order) with the local time it had read it by. A job whose last activity
 * is at or before a stamp noted at least one activity timeout ago, by this replica's own clock,
 * has been quiet for that long whatever the clocks of other replicas say. Replicas may all run
 * it: re-enqueueing checks the job still has that activity, in the same transaction.
 *
 * <p>Runs are driven from outside ({@link #runOnce()}), by the scheduler in service and by tests
 * with a mutable clock.
 */
public final class ActivityMonitor {

    private static final int FIRST_BATCH = 200;

    /** Types per probe; halved for good when a probe is too slow ({@link ShrinkingBatches#inChunks}). */
    private final AtomicInteger probeSize = new AtomicInteger(ShrinkingBatches.PROBE_ITEMS);

    private final EngineContext context;
    private final Map<String, Deque<Mark>> marks = new HashMap<>();

    private record Mark(long at, Versionstamp stamp, long timeout) {
    }

    /** The shortest activity timeout among the types of the last run, in microseconds. */
    private volatile long shortestTimeout = Long.MAX_VALUE;

    public ActivityMonitor(EngineContext context) {
        this.context = context;
    }

    /**
     * How soon the next run should come: a tenth of the shortest activity timeout, so a quiet
     * processor's job comes back within about 1.2 of its type's timeout, but at least
     * {@code floor} and at most {@code longest} apart.
     */
    public Duration nextRunWithin(Duration floor, Duration longest) {
        long shortest = shortestTimeout;
        if (shortest == Long.MAX_VALUE) {
            return longest;
        }
        Duration tenth = Duration.ofNanos(shortest * 1_000 / 10);
        return tenth.compareTo(floor) < 0 ? floor : tenth.compareTo(longest) > 0 ? longest : tenth;
    }

    /** One pass over every type; answers how many jobs of each type went back to pending. */
    public synchronized Map<String, Integer> runOnce() {
        long now = context.now();
        Map<String, TypeSettings> types = context.runner().run(TypeRegistry::settingsOfAll);
        Map<String, Integer> requeued = new HashMap<>();
        marks.keySet().retainAll(types.keySet());
        shortestTimeout = types.values().stream().mapToLong(settings -> settings.activityTimeout().toNanos() / 1_000)
                .min().orElse(Long.MAX_VALUE);
        // Each type's marks that reach back a timeout, the last of them the threshold: looked at
        // here, let go of only once the type's check is done, so a run that fails loses none.
        Map<String, Integer> spent = new HashMap<>();
        Map<String, Versionstamp> thresholds = new HashMap<>();
        for (Map.Entry<String, TypeSettings> entry : types.entrySet()) {
            long timeout = entry.getValue().activityTimeout().toNanos() / 1_000;
            Deque<Mark> history = marks.computeIfAbsent(entry.getKey(), t -> new ArrayDeque<>());
            // A changed timeout starts the count again (couch_jobs skips a check then).
            history.removeIf(mark -> mark.timeout != timeout);
            int old = 0;
            Mark threshold = null;
            for (Mark mark : history) {
                if (now - mark.at < timeout) {
                    break;
                }
                threshold = mark;
                old++;
            }
            spent.put(entry.getKey(), old);
            if (threshold != null && threshold.stamp != null) {
                thresholds.put(entry.getKey(), threshold.stamp);
            }
        }
        ShrinkingBatches.inChunks(new ArrayList<>(types.keySet()), probeSize, chunk -> probe(chunk, thresholds),
                (chunk, probe) -> {
                    // A mark's time must come after every activity up to its stamp: the time the
                    // probe had read them by, not the run's start (a beat in between would count
                    // as older than it is, and its job come back early).
                    long seen = context.now();
                    for (Map.Entry<String, Versionstamp> latest : probe.latest().entrySet()) {
                        String type = latest.getKey();
                        TypeSettings settings = types.get(type);
                        if (probe.stale().contains(type)) {
                            int count = reenqueueThrough(type, thresholds.get(type), settings, now);
                            if (count > 0) {
                                requeued.put(type, count);
                                context.observer().requeued(type, count);
                            }
                        }
                        Deque<Mark> history = marks.get(type);
                        for (int i = spent.get(type); i > 0; i--) {
                            history.pollFirst();
                        }
                        // A mark every tenth of the timeout bounds detection to about 1.1 timeouts.
                        long timeout = settings.activityTimeout().toNanos() / 1_000;
                        if (history.isEmpty() || seen - history.peekLast().at >= timeout / 10) {
                            history.addLast(new Mark(seen, latest.getValue(), timeout));
                        }
                    }
                });
        return requeued;
    }

    /**
     * What one read-only transaction finds for {@code types}: each one's latest activity (null if
     * none yet), and which have a running job quiet since their threshold. A run costs one such
     * transaction per {@link #probeSize} types, plus the moves of types with quiet jobs: types
     * are made by any add and seldom go, so a transaction or two for each on every run (ten a
     * timeout) used to keep an idle service busy.
     */
    private Probe probe(List<String> types, Map<String, Versionstamp> thresholds) {
        return context.runner().run(tx -> {
            Map<String, Versionstamp> latest = new LinkedHashMap<>();
            Set<String> stale = new HashSet<>();
            for (String type : types) {
                byte[] value = tx.snapshot().get(JobKeys.latestActivity(type));
                latest.put(type, value == null ? null : Versionstamp.fromBytes(value));
                Versionstamp through = thresholds.get(type);
                if (through != null && !tx.snapshot()
                        .getRange(JobKeys.activityBegin(type), JobKeys.activityThrough(type, through), 1).isEmpty()) {
                    stale.add(type);
                }
            }
            return new Probe(latest, stale);
        });
    }

    private record Probe(Map<String, Versionstamp> latest, Set<String> stale) {
    }

    private int reenqueueThrough(String type, Versionstamp through, TypeSettings settings, long now) {
        return ShrinkingBatches.drain(FIRST_BATCH, size -> {
            Requeued batch = context.runner().run(tx -> {
                List<KeyValue> stale =
                        tx.getRange(JobKeys.activityBegin(type), JobKeys.activityThrough(type, through), size);
                int moved = 0;
                int failed = 0;
                Map<String, String> seriesEnds = new LinkedHashMap<>();
                for (KeyValue kv : stale) {
                    JobKeys.ActivityEntry entry = JobKeys.activityEntry(kv.key(), kv.value());
                    String id = entry.id();
                    JobRecord r = JobRecord.load(tx, type, id);
                    if (r != null && r.state() == JobState.RUNNING && entry.stamp().equals(r.activity())) {
                        failed += Runs.reenqueueStale(tx, r, settings, now) ? 1 : 0;
                        moved++;
                        if (r.seriesEnd() != null) {
                            seriesEnds.put(id, r.seriesEnd());
                        }
                    } else {
                        tx.clear(kv.key()); // an activity key its job no longer owns
                    }
                }
                return new Requeued(new ShrinkingBatches.Step(stale.size(), moved), failed, seriesEnds);
            });
            batch.seriesEnds().forEach((id, why) -> Runs.logSeriesEnd(type, id, why));
            if (batch.failed() > 0) {
                context.observer().runsFailed(type, batch.failed());
            }
            return batch.step();
        });
    }

    /** A batch's moves, how many were a run's last attempt, and the series it ended (logged once it has committed). */
    private record Requeued(ShrinkingBatches.Step step, int failed, Map<String, String> seriesEnds) {
    }
}
