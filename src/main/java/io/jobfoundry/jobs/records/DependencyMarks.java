package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.kv.KvTransaction;

/**
 * The markers of {@link JobKeys} that tell the dependency resolver a job others wait for finished
 * or went, at the level of keys, so that {@link JobRecord#finish} can leave one without knowing
 * {@link Dependencies} (which moves records, and so knows {@link JobRecord}).
 */
final class DependencyMarks {

    /** The outcome a marker records for a job removed before it had succeeded. */
    static final String REMOVED = "removed";

    private DependencyMarks() {
    }

    /** A job finished with {@code result}: if others wait for it, its marker tells the resolver. */
    static void finished(KvTransaction tx, String type, String id, String origin, JobResult result, long now) {
        if (hasDependents(tx, type, id)) {
            mark(tx, type, id, result.wireName(), origin, now);
        }
    }

    /**
     * Whether any job waits for this one: one key at most, read with a conflict, so that a job
     * added to wait for it while it finishes conflicts with the finish (see {@link Dependencies}).
     */
    static boolean hasDependents(KvTransaction tx, String type, String id) {
        return !tx.getRange(DependencyKeys.edgesBegin(type, id), DependencyKeys.edgesEnd(type, id), 1).isEmpty();
    }

    /** Writes the job's marker: {@code (outcome, origin, at)}. */
    static void mark(KvTransaction tx, String type, String id, String outcome, String origin, long now) {
        tx.set(DependencyKeys.marker(type, id), Tuple.from(outcome, origin, now).pack());
        tx.add(DependencyKeys.resolverWatch(), 1); // an atomic add: finishes never conflict on it
    }
}
