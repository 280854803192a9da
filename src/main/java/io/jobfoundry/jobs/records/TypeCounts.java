package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.records.JobKeys.Counter;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import io.jobfoundry.kv.KvTransaction;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-type counters of jobs by state and result ({@code ("c", type, counter)}): atomic adds
 * as jobs move, so that concurrent moves never conflict on them, and range reads to show them.
 */
public final class TypeCounts {

    private TypeCounts() {
    }

    static void add(KvTransaction tx, String type, Counter counter, long delta) {
        tx.add(JobKeys.count(type, counter), delta);
    }

    /** Counts a pending or running job's move in its type and in its group. */
    static void add(KvTransaction tx, String type, String group, Counter counter, long delta) {
        tx.add(JobKeys.count(type, counter), delta);
        tx.add(JobKeys.groupCount(type, group, counter), delta);
    }

    /**
     * When the type's pending job that has waited longest became due, or null if none is due at
     * {@code now}: the first key of the pending index, one read whatever the number of jobs.
     */
    public static Instant oldestDueAt(KvReads tx, String type, long now) {
        List<KeyValue> first = tx.getRange(JobKeys.pendingBegin(type), JobKeys.pendingEnd(type), 1);
        if (first.isEmpty()) {
            return null;
        }
        long due = JobKeys.dueOfPending(first.get(0).key());
        return due <= now ? Times.instant(due) : null;
    }

    /** One type's counters, in one range read. */
    public static Counts of(KvReads tx, String type) {
        return tallies(tx.getRange(JobKeys.countsBegin(type), JobKeys.countsEnd(type), 0)).getOrDefault(type, Counts.NONE);
    }

    /**
     * Every type's counters in one range read, where a read per counter and type made listing
     * thousands of types tens of thousands of reads (on FoundationDB, past a transaction's 5 s).
     */
    public static Map<String, Counts> ofEveryType(KvReads tx) {
        return tallies(tx.getRange(JobKeys.countsBegin(), JobKeys.countsEnd(), 0));
    }

    private static Map<String, Counts> tallies(List<KeyValue> counters) {
        Map<String, long[]> byType = new HashMap<>();
        for (KeyValue kv : counters) {
            JobKeys.CountKey key = JobKeys.countKey(kv.key());
            if (key.counter() != null) {
                byType.computeIfAbsent(key.type(), type -> new long[Counter.values().length])[key.counter().ordinal()] =
                        ByteBuffer.wrap(kv.value()).order(ByteOrder.LITTLE_ENDIAN).getLong();
            }
        }
        Map<String, Counts> counts = new HashMap<>();
        byType.forEach((type, n) -> counts.put(type, new Counts(n[Counter.SCHEDULED.ordinal()] + n[Counter.READY.ordinal()],
                n[Counter.READY.ordinal()], n[Counter.RUNNING.ordinal()], n[Counter.SUCCEEDED.ordinal()],
                n[Counter.FAILED.ordinal()], n[Counter.CANCELLED.ordinal()])));
        return counts;
    }
}
