package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.kv.VersionstampKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A job record's stored form ({@link RecordFields}): a tuple with a leading format number, the fields, then the
 * activity versionstamp (a record whose activity changes in its transaction is written with
 * {@code SET_VERSIONSTAMPED_VALUE} and a placeholder there), then the fields added later. A
 * release reads the elements it knows by position and ignores the ones after them, so replicas
 * of two releases can share a store during a rolling upgrade, or a rollback: the older one drops
 * what it does not know when it rewrites a record, and the newer one reads their absence as null.
 * A change an older release could not read safely would take a new format number.
 */
final class RecordFormat {

    private static final long FORMAT = 1;

    private RecordFormat() {
    }

    /** The fields before the activity stamp. */
    private static Tuple head(RecordFields r) {
        List<Object> items = new ArrayList<>(24);
        items.add(FORMAT);
        items.add((long) r.state.ordinal());
        items.add(r.result == null ? null : (long) r.result.ordinal());
        items.add(r.data == null ? null : r.data.getBytes(StandardCharsets.UTF_8));
        items.add(r.group);
        items.add((long) r.priority.ordinal());
        items.add(r.scheduledAt);
        items.add(r.createdAt);
        items.add(r.updatedAt);
        items.add(r.startedAt);
        items.add(r.finishedAt);
        items.add(r.repeat);
        items.add((long) r.attempt);
        items.add((long) r.maxAttempts);
        items.add(r.lastError);
        items.add(r.resubmit);
        items.add(r.worker);
        items.add(r.revision);
        items.add(r.lease);
        items.add(r.cancelRequested);
        items.add(r.retry);
        items.add(r.origin);
        items.add(r.finishedLease);
        items.add(r.due);
        return Tuple.fromList(items);
    }

    /** The fields after the activity stamp, added since: absent in records of earlier releases. */
    private static Tuple tail(RecordFields r) {
        return Tuple.from(r.finishedAs == null ? null : (long) r.finishedAs.ordinal(), r.runScheduledAt, r.finishedBy,
                r.history, dependencies(r), r.slots == null ? null : r.slots.encode());
    }

    /**
     * The dependencies as one nested tuple, {@code (after, waitingFor, runAfterFailure, blockedBy)}
     * with each list a tuple of {@code (type, id)} tuples; null for a job that has none, so that
     * the records of the many jobs without them grow by one byte.
     */
    private static Tuple dependencies(RecordFields r) {
        if (r.after.isEmpty() && r.waitingFor.isEmpty() && !r.runAfterFailure && r.blockedBy == null) {
            return null;
        }
        return Tuple.from(refs(r.after), refs(r.waitingFor), r.runAfterFailure,
                r.blockedBy == null ? null : Tuple.from(r.blockedBy.type(), r.blockedBy.id()));
    }

    private static Tuple refs(List<JobRef> refs) {
        Tuple tuple = new Tuple();
        for (JobRef ref : refs) {
            tuple = tuple.add(Tuple.from(ref.type(), ref.id()));
        }
        return tuple;
    }

    private static List<JobRef> refs(Tuple tuple) {
        List<JobRef> refs = new ArrayList<>(tuple.size());
        for (int i = 0; i < tuple.size(); i++) {
            Tuple ref = tuple.getNestedTuple(i);
            refs.add(new JobRef(ref.getString(0), ref.getString(1)));
        }
        return List.copyOf(refs);
    }

    private static void readDependencies(Tuple deps, RecordFields r) {
        if (deps == null) {
            return;
        }
        r.after = refs(deps.getNestedTuple(0));
        r.waitingFor = refs(deps.getNestedTuple(1));
        r.runAfterFailure = deps.getBoolean(2);
        Tuple blocked = deps.getNestedTuple(3);
        r.blockedBy = blocked == null ? null : new JobRef(blocked.getString(0), blocked.getString(1));
    }

    /** The record with its current (complete or absent) activity stamp. */
    static byte[] encode(RecordFields r) {
        return head(r).addObject(r.activity).addAll(tail(r)).pack();
    }

    /** The record with a placeholder for this transaction's versionstamp as its activity. */
    static VersionstampKeys.Template encodeWithNewActivity(RecordFields r, int userVersion) {
        return VersionstampKeys.key(head(r), userVersion, tail(r));
    }

    /** Reads {@code bytes} into {@code r}, a record of the job whose key they were under; answers it. */
    static <R extends RecordFields> R decode(byte[] bytes, R r) {
        Tuple t = Tuple.fromBytes(bytes);
        if (t.getLong(0) != FORMAT) {
            throw new IllegalStateException("unknown job record format " + t.getLong(0));
        }
        r.state = JobState.values()[(int) t.getLong(1)];
        r.result = t.get(2) == null ? null : JobResult.values()[(int) t.getLong(2)];
        byte[] data = t.getBytes(3);
        r.data = data == null ? null : new String(data, StandardCharsets.UTF_8);
        r.group = t.getString(4);
        r.priority = Priority.values()[(int) t.getLong(5)];
        r.scheduledAt = t.getLong(6);
        r.createdAt = t.getLong(7);
        r.updatedAt = t.getLong(8);
        r.startedAt = (Long) t.get(9);
        r.finishedAt = (Long) t.get(10);
        r.repeat = t.getString(11);
        r.attempt = (int) t.getLong(12);
        r.maxAttempts = (int) t.getLong(13);
        r.lastError = t.getString(14);
        r.resubmit = t.getBoolean(15);
        r.worker = t.getString(16);
        r.revision = t.getLong(17);
        r.lease = t.getString(18);
        r.cancelRequested = t.getBoolean(19);
        r.retry = t.getBoolean(20);
        r.origin = t.getString(21);
        r.finishedLease = t.getString(22);
        r.due = t.getBoolean(23);
        r.activity = t.getVersionstamp(24);
        if (t.size() > 25) { // written by a release that keeps them
            r.finishedAs = t.get(25) == null ? null : JobResult.values()[(int) t.getLong(25)];
            r.runScheduledAt = (Long) t.get(26);
        }
        if (t.size() > 27) {
            r.finishedBy = t.getString(27);
        }
        if (t.size() > 28) {
            r.history = t.getNestedTuple(28);
        }
        if (t.size() > 29) {
            readDependencies(t.getNestedTuple(29), r);
        }
        if (t.size() > 30) {
            r.slots = HeldSlots.decode(t.getNestedTuple(30));
        }
        return r;
    }
}
