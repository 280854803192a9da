package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.GroupCounts;
import io.jobfoundry.jobs.model.GroupPage;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.records.JobKeys.Counter;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
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
                n[key.counter().ordinal()] = ByteBuffer.wrap(kv.value()).order(ByteOrder.LITTLE_ENDIAN).getLong();
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
        // A tuple, not the name itself: the default group's name is empty.
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Tuple.from(group).pack());
    }

    /** The group a cursor of {@link #page} stands for; a cursor this service did not hand out is {@code 400}. */
    public static String decodeCursor(String cursor) {
        try {
            Tuple tuple = Tuple.fromBytes(Base64.getUrlDecoder().decode(cursor));
            String group = tuple.size() == 1 ? tuple.getString(0) : null;
            if (group == null || !encodeCursor(group).equals(cursor)) {
                throw new IllegalArgumentException("not canonical");
            }
            return group;
        } catch (RuntimeException e) {
            throw new InvalidJobRequestException("cursor", "cursor is not one this service handed out");
        }
    }
}
