package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobConflictException;
import io.jobfoundry.jobs.model.JobNotFoundException;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.kv.KvTransaction;
import java.util.Arrays;

/** A client's changes to an existing job: patch, cancel, resubmit and remove. */
public final class Edits {

    private Edits() {
    }

    /**
     * Changes {@code priority}, {@code repeat} and {@code maxAttempts} of any job; {@code scheduledAt},
     * {@code data} and {@code group} ({@code pendingOnly}: some of them are given) only of a pending one.
     */
    public static Job patch(KvTransaction tx, String type, String id, ValidChanges valid, boolean pendingOnly,
            long now) {
        JobRecord r = require(tx, type, id);
        if (pendingOnly && r.state != JobState.PENDING) {
            throw new JobConflictException("data, scheduledAt and group change only while the job is pending",
                    type, id, r.state);
        }
        // A patch that changes nothing (a retried request, values it already has, {}) is no change
        // clients see, as for a PUT: no write, no new revision or updatedAt, no event.
        byte[] before = r.encode();
        if (r.state == JobState.PENDING) {
            JobRecord changed = JobRecord.decode(type, id, before);
            Adds.apply(changed, valid, now);
            if (Arrays.equals(before, changed.encode())) {
                return r.view();
            }
            r.reposition(tx, now, true, () -> Adds.apply(r, valid, now));
        } else {
            Adds.applyToRunning(r, valid);
            if (Arrays.equals(before, r.encode())) {
                return r.view();
            }
        }
        r.save(tx, now);
        return r.view();
    }

    /**
     * Removes every trace of the job; a processor running it is told {@code removed}. A committed
     * attempt leaves an outcome under {@code nonce}, by which a retry knows the job is gone by its
     * own hand rather than never there.
     */
    public static void remove(KvTransaction tx, String type, String id, long now, String nonce) {
        byte[] outcome = JobKeys.outcome(now, nonce);
        if (tx.get(outcome) != null) {
            return; // our own earlier attempt removed it
        }
        JobRecord r = require(tx, type, id);
        Dependencies.detachRemoved(tx, r, now);
        tx.clear(JobKeys.job(type, id));
        tx.set(outcome, new byte[0]);
    }

    /**
     * Retention's removal of a job that finished with {@code result} at {@code finishedAt}: as
     * {@link #remove}, but only if it is still that finished job; answers whether it was. The
     * index key that named it goes either way: one its job no longer owns names nothing.
     */
    public static boolean removeExpired(KvTransaction tx, String type, JobKeys.FinishedKey key, JobResult result,
            long now) {
        JobRecord r = JobRecord.load(tx, type, key.id());
        if (r != null && r.finishedAs(result, key.at())) {
            Dependencies.detachRemoved(tx, r, now); // its dependents still resolve, by its result
            tx.clear(JobKeys.job(type, key.id()));
            return true;
        }
        tx.clear(JobKeys.finished(type, result, key.at(), key.id()));
        return false;
    }

    /**
     * Pending: finished and {@code cancelled} at once. Running: the processor's next call is told
     * {@code cancelled} and the job ends so (or when its activity times out), unless it is added or
     * resubmitted (by a client) after the cancel: then it is pending again. Finished: unchanged.
     */
    public static Job cancel(KvTransaction tx, String type, String id, long now) {
        JobRecord r = require(tx, type, id);
        switch (r.state) {
            case PENDING -> {
                r.unplace(tx);
                Dependencies.release(tx, r); // a job that waited for others waits no more
                r.finish(tx, JobResult.CANCELLED, now);
                r.resubmit = false;
                r.runScheduledAt = null;
            }
            case RUNNING -> {
                if (r.cancelRequested && !r.resubmit) {
                    return r.view();
                }
                r.cancelRequested = true;
                r.resubmit = false; // the latest word wins: a resubmit before the cancel is off
            }
            case FINISHED -> {
                return r.view();
            }
        }
        r.save(tx, now);
        return r.view();
    }

    /**
     * couch_jobs {@code resubmit}: a pending job moves to {@code at} (if given); a running one runs
     * again after it finishes; a finished one is pending again. A processor passes its lease. A
     * retried attempt recognizes its own earlier commit by {@code nonce}.
     */
    public static Step resubmit(KvTransaction tx, String type, String id, Long at, String lease, long now,
            String nonce) {
        JobRecord r = lease == null ? require(tx, type, id) : Processing.requireLease(tx, type, id, lease);
        if (Tokens.sameCall(r.changedBy, nonce)) {
            return new Step(r.view(), null); // our own earlier attempt committed
        }
        if (lease != null && r.cancelRequested) {
            return Runs.endCancelled(tx, r, now); // a processor's call: it hears of the cancel, as any would
        }
        r.changedBy = nonce;
        switch (r.state) {
            case PENDING -> {
                if (at == null) {
                    r.unchangedBy(tx, nonce);
                    return new Step(r.view(), null);
                }
                r.reposition(tx, now, true, () -> Runs.rescheduleRun(r, at));
            }
            case RUNNING -> {
                r.resubmit = true;
                if (at != null) {
                    Runs.scheduleNextRun(r, at);
                }
            }
            case FINISHED -> {
                r.unfinish(tx);
                Runs.restart(r, at == null ? now : at);
                Dependencies.forget(tx, r); // a fresh run, due at once: its dependencies were for the last one
                r.place(tx, now);
            }
        }
        r.save(tx, now);
        return new Step(r.view(), null);
    }

    static JobRecord require(KvTransaction tx, String type, String id) {
        JobRecord r = JobRecord.load(tx, type, id);
        if (r == null) {
            throw new JobNotFoundException(type, id);
        }
        return r;
    }
}
