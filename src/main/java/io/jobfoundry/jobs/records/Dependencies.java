package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.JobConflictException;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.kv.KvTransaction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A job's dependencies ({@code after}) as its record and the edge keys hold them
 * ({@link JobKeys}): what an add writes, what a finish or a removal leaves for the resolver, and
 * what a job that stops waiting clears. The invariant every move keeps: an edge
 * {@code ("e", parent, child)} exists exactly while the child is pending and lists the parent in
 * its {@code waitingFor}.
 *
 * <p>An add reads each parent's record (not a snapshot), and a finish or removal reads the
 * parent's edges (not a snapshot either): a child added while its parent finishes conflicts with
 * that finish, so either the add sees the parent finished, or the finish sees the edge and leaves
 * its marker. The children are never touched by the parent's own transaction, whatever their
 * number: the resolver ({@code DependencyResolver}) does that a bounded page at a time.
 */
public final class Dependencies {

    private Dependencies() {
    }

    /**
     * What an add found of the jobs named in {@code after}: those not yet done, and the first of them
     * (in the order given) that already ended badly, which ends the job at once unless it runs after
     * a failure anyway.
     */
    record Found(List<JobRef> waitingFor, List<String> origins, JobRef blocked, String blockedOutcome) {
    }

    /**
     * Reads every job named in {@code after}; throws the {@code 400} naming the entry of one that
     * does not exist (a scoped caller gets the same for one it may not see: {@link #missing}).
     */
    static Found find(KvTransaction tx, List<JobRef> after, boolean runAfterFailure) {
        List<JobRef> waiting = new ArrayList<>();
        List<String> origins = new ArrayList<>();
        JobRef blocked = null;
        String blockedOutcome = null;
        for (int i = 0; i < after.size(); i++) {
            JobRef ref = after.get(i);
            JobRecord parent = JobRecord.load(tx, ref.type(), ref.id());
            if (parent == null) {
                throw missing(i, ref);
            }
            if (parent.state != JobState.FINISHED) {
                waiting.add(ref);
                origins.add(parent.origin);
            } else if (parent.result != JobResult.SUCCEEDED && !runAfterFailure && blocked == null) {
                blocked = ref;
                blockedOutcome = parent.result.wireName();
            }
        }
        return new Found(List.copyOf(waiting), origins, blocked, blockedOutcome);
    }

    /** The refusal of {@code after[index]} naming a job that does not exist (or that the caller may not see). */
    public static InvalidJobRequestException missing(int index, JobRef ref) {
        return new InvalidJobRequestException("after[" + index + "]", "after[" + index + "] names job " + ref.id()
                + " of type " + ref.type() + ", which does not exist");
    }

    /**
     * Gives a job that is not in any index (new, or taken out of its index by the caller) the
     * dependencies {@code after}: its edges follow its new {@code waitingFor}. Answers true if one
     * of them already ended badly and the job must end {@code cancelled} now ({@link #cancelBlocked}).
     * A job others wait for takes no dependency it did not already wait for: that is the only way
     * a cycle could form, and no job could ever leave one.
     */
    static boolean wire(KvTransaction tx, JobRecord r, List<JobRef> after, boolean isNew) {
        Found found = find(tx, after, r.runAfterFailure);
        Set<JobRef> before = new HashSet<>(r.waitingFor);
        // (Edges under a new job's id name a removed one that had the id: not its dependents.)
        if (!isNew && !before.containsAll(found.waitingFor()) && DependencyMarks.hasDependents(tx, r.type, r.id)) {
            throw new JobConflictException("other jobs wait for job " + r.id + " of type " + r.type
                    + ": it cannot start waiting for more jobs (that could make a cycle)", r.type, r.id, r.state, "after");
        }
        release(tx, r);
        r.after = List.copyOf(after);
        r.blockedBy = null;
        if (found.blocked() != null) {
            r.blockedBy = found.blocked();
            r.lastError = blockedError(found.blocked(), found.blockedOutcome());
            return true;
        }
        for (int i = 0; i < found.waitingFor().size(); i++) {
            JobRef parent = found.waitingFor().get(i);
            tx.set(DependencyKeys.edge(parent.type(), parent.id(), r.type, r.id), Tuple.from(found.origins().get(i)).pack());
        }
        r.waitingFor = found.waitingFor();
        return false;
    }

    /** Ends a job, in no index, {@code cancelled} by the dependency {@link #wire} found ended. */
    static void cancelBlocked(KvTransaction tx, JobRecord r, long now) {
        r.resubmit = false; // as any cancel of a pending job
        r.runScheduledAt = null;
        r.retry = false;
        r.finish(tx, JobResult.CANCELLED, now);
    }

    /** Forgets a job's dependencies for a fresh run that waits for nothing (a retry, a resubmit). */
    static void forget(KvTransaction tx, JobRecord r) {
        release(tx, r);
        r.after = List.of();
        r.blockedBy = null;
    }

    /** The job stops waiting: its edges go (the caller has taken it out of its index, if parked). */
    static void release(KvTransaction tx, JobRecord r) {
        for (JobRef parent : r.waitingFor) {
            tx.clear(DependencyKeys.edge(parent.type(), parent.id(), r.type, r.id));
        }
        r.waitingFor = List.of();
    }

    /** The lastError of a job a dependency ended: which one, and how it ended. */
    static String blockedError(JobRef parent, String outcome) {
        return "cancelled: job " + parent.id() + " of type " + parent.type() + " it waited for "
                + (DependencyMarks.REMOVED.equals(outcome) ? "was removed" : "finished " + outcome);
    }

    /**
     * Takes a job being removed out of every index ({@link JobRecord#detach}) and of the
     * dependencies (the caller clears its record): it stops waiting, and if others wait for it its
     * marker tells the resolver whether it had succeeded.
     */
    static void detachRemoved(KvTransaction tx, JobRecord r, long now) {
        boolean succeeded = r.state == JobState.FINISHED && r.result == JobResult.SUCCEEDED; // before detach forgets it
        r.detach(tx);
        release(tx, r);
        if (DependencyMarks.hasDependents(tx, r.type, r.id)) {
            DependencyMarks.mark(tx, r.type, r.id, succeeded ? JobResult.SUCCEEDED.wireName() : DependencyMarks.REMOVED,
                    r.origin, now);
        }
    }
}
