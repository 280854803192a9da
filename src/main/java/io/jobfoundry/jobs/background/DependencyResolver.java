package io.jobfoundry.jobs.background;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.records.DependencyKeys;
import io.jobfoundry.jobs.records.Resolutions;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.RetriesExhaustedException;
import io.jobfoundry.kv.StoreLimitException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Resolves the dependencies of jobs that finished or went: for each marker a finish or a removal
 * left ({@code ("z", type, id)}), the jobs waiting for it stop waiting for it, a page of at most
 * {@link Resolutions#PAGE} of them per transaction ({@link Resolutions#step}), so that a job a
 * million others wait for costs its own finish one more read, and the resolver ten thousand small
 * transactions, never one beyond FoundationDB's 5 s and 10 MB. A page too large all the same (its
 * jobs carry large data) is tried again at half the size, and the smaller size kept.
 *
 * <p>A cancelled child leaves a marker of its own when others wait for it; a run goes on until no
 * marker is left, so a chain of cancellations cascades within one run. Replicas may all run it:
 * they conflict on the same keys, and each page is judged afresh by what its transaction reads.
 */
public final class DependencyResolver {

    /** Markers one read lists. */
    static final int MARKERS = 100;

    private final EngineContext context;
    private final AtomicInteger page = new AtomicInteger(Resolutions.PAGE);

    public DependencyResolver(EngineContext context) {
        this.context = context;
    }

    /** What a run did: the markers it resolved, and the waiting jobs it placed or cancelled. */
    public record Result(int markers, int moved) {
    }

    /** Resolves every marker, those its own cancellations leave included. */
    public Result runOnce() {
        return runOnce(() -> false);
    }

    /** {@link #runOnce()}, until {@code standDown} answers true between two transactions. */
    public Result runOnce(BooleanSupplier standDown) {
        int markers = 0;
        int moved = 0;
        while (!standDown.getAsBoolean()) {
            // A snapshot: listing the markers must not conflict with the finishes that write them.
            List<KeyValue> listed = context.runner().run(tx -> tx.snapshot().getRange(DependencyKeys.markersBegin(),
                    DependencyKeys.markersEnd(), MARKERS));
            if (listed.isEmpty()) {
                break;
            }
            for (KeyValue kv : listed) {
                if (standDown.getAsBoolean()) {
                    break;
                }
                moved += resolve(DependencyKeys.jobOfMarker(kv.key()), standDown);
                markers++;
            }
        }
        return new Result(markers, moved);
    }

    /** Works through one marker's edges, a page per transaction; answers the children moved. */
    private int resolve(JobRef parent, BooleanSupplier standDown) {
        byte[] from = null;
        byte[] startedWith = null;
        int moved = 0;
        while (!standDown.getAsBoolean()) {
            int size = page.get();
            long now = context.now();
            byte[] begin = from;
            byte[] first = startedWith;
            Resolutions.Page done;
            try {
                done = context.runner().run(tx -> Resolutions.step(tx, parent, begin, first, size, now));
            } catch (StoreLimitException | RetriesExhaustedException e) {
                if (size == 1) {
                    throw e;
                }
                page.compareAndSet(size, Math.max(1, size / 2));
                continue;
            }
            moved += done.moved();
            if (done.done()) {
                break;
            }
            if (done.next() == null) { // the marker changed while its pages were worked through: again
                startedWith = done.marker();
                from = null;
            } else {
                startedWith = startedWith == null ? done.marker() : startedWith;
                from = done.next();
            }
        }
        return moved;
    }
}
