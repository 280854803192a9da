package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.kv.TupleReader;
import io.jobfoundry.kv.TupleWriter;
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
    private static TupleWriter head(RecordFields r) {
        return TupleWriter.withCapacity(256)
                .add(FORMAT)
                .add(r.state.ordinal())
                .addNullable(r.result == null ? null : (long) r.result.ordinal())
                .add(r.data == null ? null : r.data.getBytes(StandardCharsets.UTF_8))
                .add(r.group)
                .add(r.priority.ordinal())
                .add(r.scheduledAt)
                .add(r.createdAt)
                .add(r.updatedAt)
                .addNullable(r.startedAt)
                .addNullable(r.finishedAt)
                .add(r.repeat)
                .add(r.attempt)
                .add(r.maxAttempts)
                .add(r.lastError)
                .add(r.resubmit)
                .add(r.worker)
                .add(r.revision)
                .add(r.lease)
                .add(r.cancelRequested)
                .add(r.retry)
                .add(r.origin)
                .add(r.finishedLease)
                .add(r.due);
    }

    /** The fields after the activity stamp, added since: absent in records of earlier releases. */
    private static TupleWriter tail(TupleWriter t, RecordFields r) {
        return t.addNullable(r.finishedAs == null ? null : (long) r.finishedAs.ordinal())
                .addNullable(r.runScheduledAt)
                .add(r.finishedBy)
                .add(r.history)
                .add(dependencies(r))
                .add(r.slots == null ? null : r.slots.encode())
                .add(r.changedBy);
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
        return tail(head(r).add(r.activity), r).pack();
    }

    /** The record with a placeholder for this transaction's versionstamp as its activity. */
    static VersionstampKeys.Template encodeWithNewActivity(RecordFields r, int userVersion) {
        return tail(head(r).addIncompleteVersionstamp(userVersion), r).template();
    }

    /** Reads {@code bytes} into {@code r}, a record of the job whose key they were under; answers it. */
    static <R extends RecordFields> R decode(byte[] bytes, R r) {
        TupleReader t = TupleReader.of(bytes);
        long format = t.integer();
        if (format != FORMAT) {
            throw new IllegalStateException("unknown job record format " + format);
        }
        r.state = JobState.values()[(int) t.integer()];
        Long result = t.nullableInteger();
        r.result = result == null ? null : JobResult.values()[result.intValue()];
        byte[] data = t.bytes();
        r.data = data == null ? null : new String(data, StandardCharsets.UTF_8);
        r.group = t.string();
        r.priority = Priority.values()[(int) t.integer()];
        r.scheduledAt = t.integer();
        r.createdAt = t.integer();
        r.updatedAt = t.integer();
        r.startedAt = t.nullableInteger();
        r.finishedAt = t.nullableInteger();
        r.repeat = t.string();
        r.attempt = (int) t.integer();
        r.maxAttempts = (int) t.integer();
        r.lastError = t.string();
        r.resubmit = t.bool();
        r.worker = t.string();
        r.revision = t.integer();
        r.lease = t.string();
        r.cancelRequested = t.bool();
        r.retry = t.bool();
        r.origin = t.string();
        r.finishedLease = t.string();
        r.due = t.bool();
        r.activity = t.versionstamp();
        if (t.hasNext()) { // written by a release that keeps the fields added since
            Long finishedAs = t.nullableInteger();
            r.finishedAs = finishedAs == null ? null : JobResult.values()[finishedAs.intValue()];
            r.runScheduledAt = t.nullableInteger();
        }
        if (t.hasNext()) {
            r.finishedBy = t.string();
        }
        if (t.hasNext()) {
            r.history = t.nested();
        }
        if (t.hasNext()) {
            readDependencies(t.nested(), r);
        }
        if (t.hasNext()) {
            r.slots = HeldSlots.decode(t.nested());
        }
        if (t.hasNext()) {
            r.changedBy = t.string();
        }
        return r;
    }
}
