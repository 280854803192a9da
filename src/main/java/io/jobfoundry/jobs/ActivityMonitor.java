package io.jobfoundry.jobs;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.kv.KeyValue;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Re-enqueues running jobs whose processor has gone quiet (couch_jobs' activity monitor).
 *
 * <p>It never compares a stored time with this machine's clock. Each run notes the type's latest
 * activity versionstamp (commit order) with the local time it saw it. A job whose last activity
 * is at or before a stamp noted at least one activity timeout ago, by this replica's own clock,
 * has been quiet for that long whatever the clocks of other replicas say. Replicas may all run
 * it: re-enqueueing checks the job still has that activity, in the same transaction.
 *
 * <p>Runs are driven from outside ({@link #runOnce()}), by the scheduler in service and by tests
 * with a mutable clock.
 */
public final class ActivityMonitor {

    private static final int FIRST_BATCH = 200;

    private final JobEngine engine;
    private final Map<String, Deque<Mark>> marks = new HashMap<>();

    private record Mark(long at, Versionstamp stamp, long timeout) {
    }

    /** The shortest activity timeout among the types of the last run, in microseconds. */
    private volatile long shortestTimeout = Long.MAX_VALUE;

    public ActivityMonitor(JobEngine engine) {
        this.engine = engine;
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
        long now = Times.micros(engine.clock().instant());
        Map<String, TypeSettings> types = engine.runner().run(TypeRegistry::all);
        Map<String, Integer> requeued = new HashMap<>();
        marks.keySet().retainAll(types.keySet());
        shortestTimeout = types.values().stream().mapToLong(settings -> settings.activityTimeout().toNanos() / 1_000)
                .min().orElse(Long.MAX_VALUE);
        for (Map.Entry<String, TypeSettings> entry : types.entrySet()) {
            String type = entry.getKey();
            long timeout = entry.getValue().activityTimeout().toNanos() / 1_000;
            Deque<Mark> history = marks.computeIfAbsent(type, t -> new ArrayDeque<>());
            // A changed timeout starts the count again (couch_jobs skips a check then).
            history.removeIf(mark -> mark.timeout != timeout);
            Versionstamp latest = engine.runner().run(tx -> {
                byte[] value = tx.snapshot().get(JobKeys.latestActivity(type));
                return value == null ? null : Versionstamp.fromBytes(value);
            });
            Mark threshold = null;
            while (!history.isEmpty() && now - history.peekFirst().at >= timeout) {
                threshold = history.pollFirst();
            }
            if (threshold != null && threshold.stamp != null) {
                int count = reenqueueThrough(type, threshold.stamp, entry.getValue(), now);
                if (count > 0) {
                    requeued.put(type, count);
                    engine.observer().requeued(type, count);
                }
            }
            // A mark every tenth of the timeout bounds detection to about 1.1 timeouts.
            if (history.isEmpty() || now - history.peekLast().at >= timeout / 10) {
                history.addLast(new Mark(now, latest, timeout));
            }
        }
        return requeued;
    }

    private int reenqueueThrough(String type, Versionstamp through, TypeSettings settings, long now) {
        return ShrinkingBatches.drain(FIRST_BATCH, size -> engine.runner().run(tx -> {
            List<KeyValue> stale =
                    tx.getRange(JobKeys.activityBegin(type), JobKeys.activityThrough(type, through), size);
            int moved = 0;
            for (KeyValue kv : stale) {
                Versionstamp stamp = Tuple.fromBytes(kv.key()).getVersionstamp(2);
                String id = Tuple.fromBytes(kv.value()).getString(0);
                JobRecord r = JobIndex.load(tx, type, id);
                if (r != null && r.state == JobState.RUNNING && stamp.equals(r.activity)) {
                    JobEngine.reenqueueStale(tx, r, settings, now);
                    moved++;
                } else {
                    tx.clear(kv.key()); // an activity key its job no longer owns
                }
            }
            return new ShrinkingBatches.Step(stale.size(), moved);
        }));
    }
}
