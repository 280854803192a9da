package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.BulkAction;
import io.jobfoundry.jobs.model.BulkResult;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobFilter;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.kv.KvTransaction;
import java.util.List;

/**
 * One step of a bulk action: the body of one transaction over a page of jobs a listing found. Each
 * job is read again and acted on only if it still matches the filter (one that changed since the
 * listing is left alone); the action is the single call's own body ({@link Edits}), so a running
 * job's processor hears of it as it would of the single call.
 */
public final class Bulk {

    /** Jobs one step acts on at most: a step is one transaction, and FDB's are small and short. */
    public static final int STEP = 100;

    private Bulk() {
    }

    /**
     * Acts on those of {@code candidates} that still match {@code filter}. A committed step leaves
     * its counts under the outcome key of {@code nonce}: a retried attempt whose earlier one
     * committed answers those counts and acts on nothing again (its jobs may match still, e.g.
     * pending ones a retry leaves alone, and would otherwise be counted twice).
     */
    public static BulkResult step(KvTransaction tx, BulkAction action, JobFilter filter, List<Job> candidates,
            long now, String nonce) {
        byte[] outcome = JobKeys.outcome(now, nonce);
        byte[] earlier = tx.get(outcome);
        if (earlier != null) {
            Tuple counts = Tuple.fromBytes(earlier);
            return new BulkResult(counts.getLong(0), counts.getLong(1));
        }
        long matched = 0;
        long changed = 0;
        for (Job candidate : candidates) {
            JobRecord r = JobRecord.load(tx, candidate.type(), candidate.id());
            if (r == null || !filter.coversType(r.type) || !filter.matches(r.state, r.result, r.group)) {
                continue; // gone, or changed since the listing saw it
            }
            matched++;
            if (act(tx, action, r, now, nonce + "." + matched)) {
                changed++;
            }
        }
        tx.set(outcome, Tuple.from(matched, changed).pack());
        return new BulkResult(matched, changed);
    }

    /** Whether the action changed the job; {@code nonce} is the job's own within the step. */
    private static boolean act(KvTransaction tx, BulkAction action, JobRecord r, long now, String nonce) {
        switch (action) {
            case CANCEL -> {
                // What Edits.cancel leaves as it is: a finished job, and a running one already told
                // to stop (not resubmitted since).
                boolean changes = r.state == JobState.PENDING
                        || r.state == JobState.RUNNING && (!r.cancelRequested || r.resubmit);
                if (changes) {
                    Edits.cancel(tx, r.type, r.id, now);
                }
                return changes;
            }
            case RETRY -> {
                // As PUT of a finished job (Edits.resubmit of one is the same move): a fresh run,
                // due now; pending and running jobs are left alone.
                if (r.state != JobState.FINISHED) {
                    return false;
                }
                Edits.resubmit(tx, r.type, r.id, null, null, now, nonce);
                return true;
            }
            case REMOVE -> {
                Edits.remove(tx, r.type, r.id, now, nonce);
                return true;
            }
            default -> throw new IllegalArgumentException("unknown bulk action " + action);
        }
    }
}
