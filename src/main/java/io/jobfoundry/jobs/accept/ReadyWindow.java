package io.jobfoundry.jobs.accept;

import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.records.JobKeys.ReadyKey;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.TupleWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The oldest ready keys of one group, as one take ({@link Acceptor#take}) sees them: read once
 * with snapshot reads, then kept for the rest of the take with the keys it claims taken out, so an
 * accept of sixteen jobs from one group reads the group once instead of sixteen times. What it
 * offers is what reading the group again inside the same transaction would return: the
 * transaction's own claims are the only change it could see (its snapshot is fixed on
 * FoundationDB; the embedded store runs one transaction at a time).
 *
 * <p>The ready index orders a group's keys by class, then due time. The first read takes
 * {@code window + need - 1} keys across the classes: when it did not fill that, it holds the whole
 * group; when it did, it holds every class before the class of its last key in full. A class the
 * read reached with fewer than {@code window} keys, or did not reach, is read on its own, so each
 * class is offered its {@code window} oldest keys, and however many of them the take claims (at
 * most {@code need}) it still has {@code window} left. Only keys that could not be claimed can
 * leave a class short; it is then read again.
 */
final class ReadyWindow {

    private final KvTransaction tx;
    private final String type;
    private final String group;
    private final int window;
    private final int limit;
    private final List<ReadyKey> keys;
    private final boolean whole;
    private final Map<Integer, ClassKeys> classes = new HashMap<>();

    /**
     * One class's oldest keys not yet claimed (a list the take shortens), and whether no others
     * existed when they were read.
     */
    private record ClassKeys(List<ReadyKey> left, boolean complete) {
    }

    /**
     * @param window how many of a class's oldest keys are candidates ({@code EngineOptions.acceptWindow})
     * @param need   how many jobs the take still wants, all read at once: a take of many jobs from
     *               one group costs one read
     */
    ReadyWindow(KvTransaction tx, String type, String group, int window, int need) {
        this.tx = tx;
        this.type = type;
        this.group = group;
        this.window = window;
        // Enough that the take's own claims leave each class read in full its window of candidates.
        this.limit = window + Math.max(need, 1) - 1;
        List<KeyValue> read = tx.snapshot().getRange(
                JobKeys.readyGroupBegin(type, group), JobKeys.readyGroupEnd(type, group), limit);
        this.keys = read.stream().map(kv -> JobKeys.readyKey(kv.key())).toList();
        this.whole = read.size() < limit;
    }

    /**
     * The candidates of one class: its oldest ready keys not claimed in this take, at most
     * {@code window}, oldest first.
     */
    List<ReadyKey> candidates(Priority priority, boolean retry) {
        int order = JobKeys.readyClassOrder(priority, retry);
        ClassKeys known = classes.get(order);
        if (known == null || !known.complete() && known.left().size() < window) {
            known = known == null ? fromFirstRead(priority, retry, order) : readClass(priority, retry);
            classes.put(order, known);
        }
        // A copy: the caller takes keys out while it goes through them.
        return List.copyOf(known.left().size() <= window ? known.left() : known.left().subList(0, window));
    }

    /** Takes a key out of the candidates: this take claimed it, or found it cannot be claimed. */
    void remove(ReadyKey key) {
        ClassKeys known = classes.get(key.classOrder());
        if (known != null) {
            known.left().removeIf(k -> k == key);
        }
    }

    private ClassKeys fromFirstRead(Priority priority, boolean retry, int order) {
        List<ReadyKey> read = new ArrayList<>();
        for (ReadyKey key : keys) {
            if (key.classOrder() == order) {
                read.add(key);
            }
        }
        boolean complete = whole || !keys.isEmpty() && order < keys.get(keys.size() - 1).classOrder();
        return complete || read.size() >= window ? new ClassKeys(read, complete) : readClass(priority, retry);
    }

    private ClassKeys readClass(Priority priority, boolean retry) {
        TupleWriter prefix = JobKeys.readyClass(type, group, priority, retry);
        List<ReadyKey> read = new ArrayList<>();
        for (KeyValue kv : tx.snapshot().getRange(prefix.rangeBegin(), prefix.rangeEnd(), limit)) {
            read.add(JobKeys.readyKey(kv.key()));
        }
        return new ClassKeys(read, read.size() < limit);
    }
}
