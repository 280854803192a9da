package io.jobfoundry.jobs.background;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.records.JobRecord;
import io.jobfoundry.jobs.records.Times;
import io.jobfoundry.jobs.records.TypeRegistry;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvTransaction;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Moves pending jobs whose scheduled time has come from the scheduled index to the ready index,
 * where accept finds them; that move bumps the type's watch key, which wakes blocked workers on
 * every replica. Idempotent: replicas may all run it.
 */
public final class DueWaker {

    private static final int BATCH = 500;

    /**
     * Types whose next scheduled job one read-only transaction looks up; halved for good when such
     * a probe is too slow ({@link ShrinkingBatches#inChunks}). A run costs a transaction per this
     * many types, plus the moves of those with a job due: types are made by any add, a typo
     * included, and seldom go, so a transaction or two for each on every run (at least once a
     * second) used to keep an idle service busy and late.
     */
    private final AtomicInteger probeSize = new AtomicInteger(ShrinkingBatches.PROBE_ITEMS);

    private final EngineContext context;

    public DueWaker(EngineContext context) {
        this.context = context;
    }

    /** Promotes every due job; answers the promotions per type and when the next job falls due. */
    public Result runOnce() {
        long now = context.now();
        Map<String, Integer> promoted = new HashMap<>();
        long[] next = {Long.MAX_VALUE};
        List<String> types = context.runner().run(TypeRegistry::names);
        ShrinkingBatches.inChunks(types, probeSize, probed -> context.runner().run(tx -> {
            Map<String, Long> found = new LinkedHashMap<>();
            for (String type : probed) {
                Long first = firstScheduled(tx, type);
                if (first != null) {
                    found.put(type, first);
                }
            }
            return found;
        }), (probed, firsts) -> {
            for (Map.Entry<String, Long> entry : firsts.entrySet()) {
                String type = entry.getKey();
                Long first = entry.getValue();
                if (first <= now) {
                    int count = promote(type, now);
                    if (count > 0) {
                        promoted.put(type, count);
                    }
                    first = context.runner().run(tx -> firstScheduled(tx, type));
                }
                if (first != null && first < next[0]) {
                    next[0] = first;
                }
            }
        });
        return new Result(promoted, next[0] == Long.MAX_VALUE ? Optional.empty() : Optional.of(Times.instant(next[0])));
    }

    /** When the type's next scheduled job is due, or null if none is scheduled. */
    private static Long firstScheduled(KvTransaction tx, String type) {
        List<KeyValue> head = tx.snapshot().getRange(JobKeys.scheduledBegin(type), JobKeys.scheduledEnd(type), 1);
        return head.isEmpty() ? null : JobKeys.scheduledKey(head.get(0).key()).at();
    }

    private int promote(String type, long now) {
        return ShrinkingBatches.drain(BATCH, size -> context.runner().run(tx -> {
            List<KeyValue> due = tx.getRange(JobKeys.scheduledBegin(type), JobKeys.scheduledThrough(type, now), size);
            int moved = 0;
            for (KeyValue kv : due) {
                JobKeys.ScheduledKey key = JobKeys.scheduledKey(kv.key());
                JobRecord r = JobRecord.load(tx, type, key.id());
                if (r != null && r.state() == JobState.PENDING && !r.due() && r.scheduledAt() == key.at()) {
                    r.promote(tx);
                    moved++;
                } else {
                    tx.clear(kv.key()); // a scheduled key its job no longer owns
                }
            }
            return new ShrinkingBatches.Step(due.size(), moved);
        }));
    }

    /** What a run did, and when the next scheduled job falls due (if any is scheduled). */
    public record Result(Map<String, Integer> promoted, Optional<Instant> nextDue) {
    }
}
