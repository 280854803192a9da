package io.jobfoundry.jobs;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.KeyValue;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Moves pending jobs whose scheduled time has come from the scheduled index to the ready index,
 * where accept finds them; that move bumps the type's watch key, which wakes blocked workers on
 * every replica. Idempotent: replicas may all run it.
 */
public final class DueWaker {

    private static final int BATCH = 500;

    private final JobEngine engine;

    public DueWaker(JobEngine engine) {
        this.engine = engine;
    }

    /** Promotes every due job; answers the promotions per type and when the next job falls due. */
    public Result runOnce() {
        long now = Times.micros(engine.clock().instant());
        Map<String, Integer> promoted = new HashMap<>();
        Long next = null;
        for (String type : engine.runner().run(TypeRegistry::names)) {
            int count = ShrinkingBatches.drain(BATCH, size -> engine.runner().run(tx -> {
                List<KeyValue> due =
                        tx.getRange(JobKeys.scheduledBegin(type), JobKeys.scheduledThrough(type, now), size);
                int moved = 0;
                for (KeyValue kv : due) {
                    Tuple key = Tuple.fromBytes(kv.key());
                    JobRecord r = JobIndex.load(tx, type, key.getString(3));
                    if (r != null && r.state == JobState.PENDING && !r.due && r.scheduledAt == key.getLong(2)) {
                        JobIndex.promote(tx, r);
                        JobIndex.store(tx, r);
                        moved++;
                    } else {
                        tx.clear(kv.key()); // a scheduled key its job no longer owns
                    }
                }
                return new ShrinkingBatches.Step(due.size(), moved);
            }));
            if (count > 0) {
                promoted.put(type, count);
            }
            Long first = engine.runner().run(tx -> {
                List<KeyValue> head = tx.snapshot().getRange(JobKeys.scheduledBegin(type), JobKeys.scheduledEnd(type), 1);
                return head.isEmpty() ? null : Tuple.fromBytes(head.get(0).key()).getLong(2);
            });
            if (first != null && (next == null || first < next)) {
                next = first;
            }
        }
        return new Result(promoted, Optional.ofNullable(next).map(Times::instant));
    }

    /** What a run did, and when the next scheduled job falls due (if any is scheduled). */
    public record Result(Map<String, Integer> promoted, Optional<Instant> nextDue) {
    }
}
