package io.jobfoundry.jobs.background;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.Edits;
import io.jobfoundry.jobs.records.Groups;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.records.StaleRateSlots;
import io.jobfoundry.jobs.records.TypeRegistry;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.Sync;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;

/**
 * Removes finished jobs once their type's retention for their result has passed (River's job
 * cleaner). It reads the index of finished jobs by finish time, never the jobs themselves, so a
 * run costs what it removes plus a read per type and result, however many jobs are kept; and it
 * removes a bounded batch per transaction, each one a transaction of its own, so a backlog of a
 * million jobs never holds up the commits of the jobs still being worked on.
 *
 * <p>Each job is checked and removed in the transaction that reads its index key, as a
 * {@code DELETE} would remove it: counts stay exact, and a job added again in the meantime
 * (pending, no longer finished) conflicts with the removal or is no longer named by the index.
 * Replicas may all run it; they conflict on the same keys, and one removes each job.
 *
 * <p>Each run also clears the counters of a few thousand fairness groups that have nothing left
 * ({@link Groups#clearIdle}) and as many per-group rate slots that hold nothing back
 * ({@link StaleRateSlots}), each sweep going on where the last run stopped, so that the keys of
 * groups that come and go (tenants, customers) do not pile up for good.
 */
public final class JobCleaner {

    /** Jobs removed per transaction, to begin with ({@link ShrinkingBatches#drain} halves it when too large). */
    static final int BATCH = 200;

    /** Keys one sweep transaction (idle groups' counters, stale rate slots) reads at most. */
    static final int SWEEP_KEYS = 3_000;

    private final EngineContext context;
    private final Sweep<String> idleGroups;
    private final Sweep<byte[]> staleRateSlots;
    /** Types per probe; halved for good when a probe is too slow ({@link ShrinkingBatches#inChunks}). */
    private final AtomicInteger probeSize = new AtomicInteger(ShrinkingBatches.PROBE_ITEMS);

    public JobCleaner(EngineContext context) {
        this.context = context;
        // Counters and slots cleared in a commit that is lost are cleared by a later run.
        this.idleGroups = new Sweep<>((type, after) -> context.runner()
                .run(tx -> Groups.clearIdle(tx, type, after, SWEEP_KEYS), Sync.DEFERRABLE).after());
        this.staleRateSlots = new Sweep<>((type, after) -> context.runner()
                .run(tx -> StaleRateSlots.clear(tx, type, after, SWEEP_KEYS, context.now()), Sync.DEFERRABLE).after());
    }

    /** Removes every finished job past its retention. */
    public Map<String, Integer> runOnce() {
        return runOnce(() -> false);
    }

    /**
     * Removes finished jobs past their retention, type by type, until none is left or
     * {@code standDown} answers true between two transactions; answers how many it removed per
     * type (types it removed none of are left out). Types are probed a chunk at a time in
     * read-only transactions, so a run over thousands of idle types costs a few reads.
     */
    public Map<String, Integer> runOnce(BooleanSupplier standDown) {
        long now = context.now();
        // A snapshot: reading the registry must not make every type change conflict with a run.
        Map<String, TypeSettings> types = context.runner().run(tx -> TypeRegistry.settingsOfAll(tx.snapshot()));
        Map<String, Integer> removed = new LinkedHashMap<>();
        ShrinkingBatches.inChunks(new ArrayList<>(types.keySet()), probeSize, chunk -> probe(chunk, types, now),
                (chunk, expired) -> {
                    for (Expired due : expired) {
                        if (standDown.getAsBoolean()) {
                            return;
                        }
                        int count = removeFinishedThrough(due.type(), due.result(), due.cutoff(), standDown, now);
                        if (count > 0) {
                            removed.merge(due.type(), count, Integer::sum);
                            context.observer().expired(due.type(), count);
                        }
                    }
                });
        List<String> names = new ArrayList<>(types.keySet());
        idleGroups.run(names, standDown);
        staleRateSlots.run(names, standDown);
        return removed;
    }

    /**
     * One sweep of every type's keys, run after run: a transaction per type from where the last
     * run stopped, until one reads a full batch (the run's share) or {@link ShrinkingBatches#PROBE_ITEMS}
     * types are done. The cursor is this replica's own: replicas that sweep the same keys conflict
     * harmlessly.
     */
    private static final class Sweep<A> {
        /** One transaction over a type's keys from a cursor (null: the start): where it stopped, null when done. */
        private final BiFunction<String, A, A> step;
        private String type;
        private A after;

        Sweep(BiFunction<String, A, A> step) {
            this.step = step;
        }

        synchronized void run(List<String> types, BooleanSupplier standDown) {
            int at = type == null ? 0 : Math.max(0, types.indexOf(type));
            int turns = Math.min(types.size(), ShrinkingBatches.PROBE_ITEMS);
            for (int n = 0; n < turns && !standDown.getAsBoolean(); n++) {
                String next = types.get((at + n) % types.size());
                after = step.apply(next, next.equals(type) ? after : null);
                type = next;
                if (after != null) {
                    return;
                }
                type = types.get((at + n + 1) % types.size());
            }
        }
    }

    /** A type and result with jobs that finished at or before {@code cutoff}, which its retention lets go of. */
    private record Expired(String type, JobResult result, long cutoff) {
    }

    /** Which of {@code types} have finished jobs past their retention, in one read-only transaction. */
    private List<Expired> probe(List<String> chunk, Map<String, TypeSettings> types, long now) {
        return context.runner().run(tx -> {
            List<Expired> expired = new ArrayList<>();
            for (String type : chunk) {
                for (JobResult result : JobResult.values()) {
                    Duration kept = types.get(type).retention().of(result);
                    if (kept == null) {
                        continue;
                    }
                    long cutoff = now - kept.toNanos() / 1_000;
                    if (!tx.snapshot().getRange(JobKeys.finishedBegin(type, result),
                            JobKeys.finishedBefore(type, result, cutoff + 1), 1).isEmpty()) {
                        expired.add(new Expired(type, result, cutoff));
                    }
                }
            }
            return expired;
        });
    }

    /** Removes the jobs of {@code type} that finished with {@code result} at or before {@code cutoff}. */
    private int removeFinishedThrough(String type, JobResult result, long cutoff, BooleanSupplier standDown,
            long now) {
        byte[] begin = JobKeys.finishedBegin(type, result);
        byte[] end = JobKeys.finishedBefore(type, result, cutoff + 1);
        return ShrinkingBatches.drain(BATCH, size -> {
            if (standDown.getAsBoolean()) {
                return new ShrinkingBatches.Step(0, 0); // ends the drain; the next run goes on
            }
            return context.runner().run(tx -> {
                List<KeyValue> expired = tx.getRange(begin, end, size);
                int moved = 0;
                for (KeyValue kv : expired) {
                    if (Edits.removeExpired(tx, type, JobKeys.finishedKey(kv.key()), result, now)) {
                        moved++;
                    }
                }
                return new ShrinkingBatches.Step(expired.size(), moved);
            }, Sync.DEFERRABLE); // a removal lost with an unsynced commit is made again by the next run
        });
    }
}
