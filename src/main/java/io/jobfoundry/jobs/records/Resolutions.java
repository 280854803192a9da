package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvTransaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The dependency resolver's transaction body ({@code DependencyResolver}): one page of the edges
 * of a job that finished or went, whose marker ({@link JobKeys}) says so. Each child still waiting
 * for it stops waiting for it: with nothing left to wait for it is placed (ready, or scheduled by
 * its {@code scheduledAt}); a dependency that did not succeed ends it {@code cancelled} instead
 * (unless it runs after a failure anyway), which leaves its own marker when others wait for it, so
 * chains cascade a marker at a time.
 *
 * <p>Safe to run again by construction: everything is judged by what the transaction reads (the
 * parent's current record, the child's {@code waitingFor}), never by what an earlier attempt did.
 * A parent that still exists as the incarnation an edge names (its {@code origin}) is judged by its
 * record: finished, by its result; pending or running again (a {@code PUT} re-ran it before the
 * resolver came), not at all, and the edge stays for its next finish. A parent that is gone is
 * judged by the marker, if the marker is that incarnation's, and as removed otherwise.
 */
public final class Resolutions {

    /** Edges (children) one transaction resolves at most, to begin with. */
    public static final int PAGE = 100;

    private Resolutions() {
    }

    /**
     * What one page did: the children it moved (placed or cancelled); the marker's value as read
     * (null once it is gone); where the next page starts (null: from the first edge again, the
     * marker having changed while its pages were worked through); whether the marker is done.
     */
    public record Page(int moved, byte[] marker, byte[] next, boolean done) {
    }

    /**
     * Resolves up to {@code limit} edges of {@code parent} from {@code from} (null: the first).
     * {@code startedWith} is the marker's value when its first page was read (null on the first
     * page): the last page clears the marker only if it is still that one, since a marker written
     * meanwhile (the parent ran and finished again) may concern edges before {@code from}.
     */
    public static Page step(KvTransaction tx, JobRef parent, byte[] from, byte[] startedWith, int limit, long now) {
        byte[] markerKey = DependencyKeys.marker(parent.type(), parent.id());
        byte[] marker = tx.get(markerKey);
        if (marker == null) {
            return new Page(0, null, null, true); // resolved already (by another replica, or an earlier attempt)
        }
        byte[] begin = from != null ? from : DependencyKeys.edgesBegin(parent.type(), parent.id());
        List<KeyValue> edges = tx.getRange(begin, DependencyKeys.edgesEnd(parent.type(), parent.id()), limit);
        JobRecord current = JobRecord.load(tx, parent.type(), parent.id());
        Tuple mark = Tuple.fromBytes(marker);
        int moved = 0;
        for (KeyValue edge : edges) {
            if (resolve(tx, parent, current, mark, edge, now)) {
                moved++;
            }
        }
        if (edges.size() == limit) {
            return new Page(moved, marker, JobKeys.after(edges.get(edges.size() - 1).key()), false);
        }
        if (startedWith == null || Arrays.equals(startedWith, marker)) {
            tx.clear(markerKey);
            return new Page(moved, marker, null, true);
        }
        return new Page(moved, marker, null, false);
    }

    /** One edge: answers whether its child moved. */
    private static boolean resolve(KvTransaction tx, JobRef parent, JobRecord current, Tuple mark, KeyValue edge,
            long now) {
        String origin = Tuple.fromBytes(edge.value()).getString(0);
        String outcome;
        if (current != null && Objects.equals(current.origin, origin)) {
            if (current.state != JobState.FINISHED) {
                return false; // running again: its children wait for this run
            }
            outcome = current.result.wireName();
        } else if (Objects.equals(mark.getString(1), origin)) {
            outcome = mark.getString(0); // gone; the marker is of the incarnation the child waited for
        } else {
            outcome = DependencyMarks.REMOVED; // gone, and another incarnation has come and gone since
        }
        tx.clear(edge.key());
        JobRef childRef = DependencyKeys.childOfEdge(edge.key());
        JobRecord child = JobRecord.load(tx, childRef.type(), childRef.id());
        if (child == null || !child.parked() || !child.waitingFor.contains(parent)) {
            return false; // an edge its child no longer owns (it cannot be, but it costs nothing to be sure)
        }
        if (outcome.equals(JobResult.SUCCEEDED.wireName()) || child.runAfterFailure) {
            List<JobRef> rest = new ArrayList<>(child.waitingFor);
            rest.remove(parent);
            if (rest.isEmpty()) {
                child.reposition(tx, now, true, () -> child.waitingFor = List.of());
            } else {
                child.waitingFor = List.copyOf(rest); // still parked: no index or count moves
            }
        } else {
            child.unplace(tx);
            Dependencies.release(tx, child);
            child.blockedBy = parent;
            child.lastError = Dependencies.blockedError(parent, outcome);
            child.finish(tx, JobResult.CANCELLED, now); // never ran: its history is left as it is
        }
        child.save(tx, now);
        return true;
    }
}
