package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.GroupCounts;
import io.jobfoundry.jobs.model.GroupPage;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.records.JobKeys.Counter;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import io.jobfoundry.kv.KvTransaction;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Pages through a type's fairness groups with their counts, from the per-group counters the moves
 * keep ({@code ("k", type, group, counter)}), never from the jobs. A group whose counters are all
 * zero has no pending or running job and is left out; a page reads a bounded number of counters,
 * so it may hold fewer than {@code limit} groups while {@code next} is not null.
 */
public final class Groups {

    /** Counter keys a page reads at most: three per group, and the empty groups it passes over. */
    private static final int SCAN_LIMIT = 3_000;

    private Groups() {
    }

    /** The groups of {@code type} after {@code after} (a decoded cursor; null from the start). */
    public static GroupPage page(KvReads tx, String type, int limit, String after) {
        byte[] from = after == null ? JobKeys.groupCountsBegin(type) : JobKeys.groupCountsAfter(type, after);
        List<KeyValue> counters = tx.getRange(from, JobKeys.groupCountsEnd(type), SCAN_LIMIT);
        List<GroupCounts> groups = new ArrayList<>();
        String current = null;
        long[] n = new long[Counter.values().length];
        String lastWhole = null; // the last group whose counters were all read
        for (KeyValue kv : counters) {
            JobKeys.GroupCountKey key = JobKeys.groupCountKey(kv.key());
            if (!key.group().equals(current)) {
                if (current != null) {
                    if (add(groups, current, n) && groups.size() == limit) {
                        return new GroupPage(groups, encodeCursor(current));
                    }
                    lastWhole = current;
                }
                current = key.group();
                Arrays.fill(n, 0);
            }
            if (key.counter() != null) {
                n[key.counter().ordinal()] = value(kv);
            }
        }
        if (counters.size() < SCAN_LIMIT) { // the range is done: the last group is whole
            if (current != null) {
                add(groups, current, n);
            }
            return new GroupPage(groups, null);
        }
        // The scan stopped inside the last group: the next page starts with it again.
        return new GroupPage(groups, lastWhole == null ? null : encodeCursor(lastWhole));
    }

    /** Where {@link #clearIdle} stopped: the last group it read whole, or null when the type's counters are done. */
    public record Swept(int cleared, String after) {
    }

    /**
     * Clears the counters of groups of {@code type} after {@code after} (null: from the start) that
     * have no pending or running job, reading at most {@code limit} counter keys: every move adds to a
     * group's counters and nothing else removes them, so a type whose groups are tenants or
     * customers would keep three keys for every group it ever had. The scan is a snapshot read; only
     * the counters cleared are read with a conflict, so a job entering such a group meanwhile (an
     * atomic add to one of them) makes this transaction retry rather than be lost, and busy groups
     * never conflict with the sweep. Counters below zero (jobs from before counts were kept, see
     * {@link #add}) are left as they are.
     */
    public static Swept clearIdle(KvTransaction tx, String type, String after, int limit) {
        byte[] from = after == null ? JobKeys.groupCountsBegin(type) : JobKeys.groupCountsAfter(type, after);
        List<KeyValue> counters = tx.snapshot().getRange(from, JobKeys.groupCountsEnd(type), limit);
        int cleared = 0;
        String lastWhole = null;
        List<KeyValue> group = new ArrayList<>();
        for (int i = 0; i <= counters.size(); i++) {
            String name = i < counters.size() ? JobKeys.groupCountKey(counters.get(i).key()).group() : null;
            if (!group.isEmpty() && !JobKeys.groupCountKey(group.get(0).key()).group().equals(name)) {
                boolean whole = name != null || counters.size() < limit;
                if (!whole) {
                    break; // the read stopped inside this group: the next sweep starts with it
                }
                if (group.stream().allMatch(kv -> value(kv) == 0)) {
                    for (KeyValue kv : group) {
                        tx.addReadConflictKey(kv.key());
                        tx.clear(kv.key());
                    }
                    cleared++;
                }
                lastWhole = JobKeys.groupCountKey(group.get(0).key()).group();
                group.clear();
            }
            if (name != null) {
                group.add(counters.get(i));
            }
        }
        return new Swept(cleared, counters.size() < limit ? null : lastWhole);
    }

    private static long value(KeyValue kv) {
        return ByteBuffer.wrap(kv.value()).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** Adds the group if it has pending or running jobs; answers whether it did. */
    private static boolean add(List<GroupCounts> groups, String group, long[] n) {
        // Counts start at zero with this release; jobs that were pending or running before it
        // may take a group's count below zero as they move on: shown as none.
        long scheduled = Math.max(0, n[Counter.SCHEDULED.ordinal()]);
        long ready = Math.max(0, n[Counter.READY.ordinal()]);
        long running = Math.max(0, n[Counter.RUNNING.ordinal()]);
        if (scheduled + ready + running == 0) {
            return false;
        }
        groups.add(new GroupCounts(group, scheduled + ready, ready, running));
        return true;
    }

    private static String encodeCursor(String group) {
        return Cursors.encode(pack(group));
    }

    /** A tuple, not the name itself: the default group's name is empty. */
    private static byte[] pack(String group) {
        return Tuple.from(group).pack();
    }

    /** The group a cursor of {@link #page} stands for; a cursor this service did not hand out is {@code 400}. */
    public static String decodeCursor(String cursor) {
        return Cursors.decode(cursor, bytes -> {
            Tuple tuple = Tuple.fromBytes(bytes);
            return tuple.size() == 1 ? tuple.getString(0) : null;
        }, Groups::pack, "");
    }
}
