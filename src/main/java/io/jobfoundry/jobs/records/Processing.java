package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.Attempt;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.kv.KvTransaction;

/** A processor's calls under its lease (couch_jobs' {@code update} and {@code finish}), and a lease given back. */
public final class Processing {

    private Processing() {
    }

    /**
     * A finish as drawn before its transaction: the same in every attempt, so a retried attempt
     * after an unknown commit result recognizes its own earlier one by {@code nonce}.
     *
     * @param lastError the error, already cut to {@link Runs#MAX_ERROR_LENGTH}; null if none
     * @param jitter    where in the backoff's jitter a failed attempt's retry falls, 0 to 1
     * @param notBefore the earliest time (microseconds) a failed attempt's retry may be due, on top
     *                  of its backoff (a push target's {@code Retry-After}); 0 for none
     */
    public record Finish(String type, String id, String lease, boolean succeeded, Change<String> data,
            String lastError, long now, String nonce, double jitter, long notBefore) {
    }

    /**
     * What a finish's committed attempt did: its answer; when the run it ended had started
     * ({@code startedAt}, or -1 if this attempt ended no run); the series it ended, to be logged
     * once committed; and whether it was the run's last attempt, failed ({@code runFailed}).
     */
    public record Finished(Step step, long startedAt, String seriesEnd, boolean runFailed) {
    }

    /**
     * Renews the activity timeout and optionally replaces the data. The new activity is this
     * transaction's versionstamp with {@code userVersion}: each job a transaction renews needs
     * its own, or their activity keys would be one key.
     */
    public static Step heartbeat(KvTransaction tx, String type, String id, String lease, Change<String> data,
            long now, int userVersion) {
        JobRecord r = requireLease(tx, type, id, lease);
        if (r.cancelRequested) {
            return Runs.endCancelled(tx, r, now);
        }
        r.data = data.orElse(r.data);
        r.recordActivity(tx, now, userVersion);
        return new Step(r.view(), null);
    }

    /**
     * Ends a run. Succeeded: finished, unless a resubmit or the repeat puts it back to pending with
     * the data given here. Failed: pending again after the backoff while attempts remain, else
     * finished {@code failed} (a repeating job goes on to its next run).
     */
    public static Finished finish(KvTransaction tx, Finish f) {
        JobRecord r = JobRecord.load(tx, f.type(), f.id());
        JobResult outcome = f.succeeded() ? JobResult.SUCCEEDED : JobResult.FAILED;
        if (r != null && f.lease().equals(r.finishedLease) && (f.nonce().equals(r.finishedBy)
                || ((r.finishedAs == null || r.finishedAs == outcome) && r.state != JobState.RUNNING))) {
            // This call's own earlier attempt ended the run (its commit result was unknown),
            // even if the job has run again since (its answer may then show it running); or a
            // worker repeats its finish, which is answered alike until the job runs again
            // under another lease: then the spent one is lost. (Once another run has ended
            // too, the lease is another's finished one, and even the call's own retry is lost.)
            String seriesEnd = f.nonce().equals(r.finishedBy) && r.repeat != null && r.state == JobState.FINISHED
                    && r.result != JobResult.CANCELLED
                    ? r.lastError // this call's own attempt ended the series, unlogged
                    : null;
            return new Finished(new Step(r.view(), null), -1, seriesEnd, false);
        }
        checkLease(r, f.type(), f.id(), f.lease());
        if (r.cancelRequested) {
            return new Finished(Runs.endCancelled(tx, r, f.now()), -1, null, false);
        }
        long now = f.now();
        long startedAt = r.startedAt == null ? now : r.startedAt;
        r.attemptEnded(f.succeeded() ? Attempt.Outcome.SUCCEEDED : Attempt.Outcome.FAILED,
                f.succeeded() ? null : f.lastError(), now);
        r.stopRunning(tx);
        r.finishedLease = f.lease();
        r.finishedAs = outcome;
        r.finishedBy = f.nonce();
        r.data = f.data().orElse(r.data);
        r.finishedAt = now;
        boolean runFailed = false;
        if (f.succeeded()) {
            r.lastError = null;
            Runs.complete(tx, r, now);
        } else {
            r.attempt++;
            r.lastError = f.lastError();
            if (r.attempt < r.maxAttempts) {
                // Only a failure needs the type's settings (its backoff): no read on success.
                Runs.retryLater(tx, r, TypeRegistry.ensure(tx, f.type()), now, f.jitter(), f.notBefore());
            } else {
                Runs.exhausted(tx, r, now);
                runFailed = true;
            }
        }
        r.save(tx, now);
        return new Finished(new Step(r.view(), null), startedAt, r.seriesEnd, runFailed);
    }

    /**
     * Hands a job taken for a processor that is gone (its wait ended) back to the queue, unchanged.
     * Its run never started, so a cancel or a resubmit that came while the lease was out applies
     * as to the pending job it was: cancelled at once, or pending (the run asked for is this one),
     * the latest of the two winning as for a running job.
     */
    public static void release(KvTransaction tx, LeasedJob leased, long now) {
        JobRecord r = JobRecord.load(tx, leased.job().type(), leased.job().id());
        if (r == null || !leased.lease().equals(r.lease)) {
            return;
        }
        r.stopRunning(tx);
        r.startedAt = null;
        boolean cancelled = r.cancelRequested && !r.resubmit;
        r.cancelRequested = false;
        r.resubmit = false;
        if (cancelled) {
            r.runScheduledAt = null;
            r.finish(tx, JobResult.CANCELLED, now);
        } else {
            r.place(tx, now);
        }
        r.save(tx, now);
    }

    /** The job if {@code lease} is its current lease; otherwise the halt that tells the processor why. */
    static JobRecord requireLease(KvTransaction tx, String type, String id, String lease) {
        JobRecord r = JobRecord.load(tx, type, id);
        checkLease(r, type, id, lease);
        return r;
    }

    private static void checkLease(JobRecord r, String type, String id, String lease) {
        if (r == null) {
            throw new HaltException(type, id, HaltReason.REMOVED);
        }
        if (lease == null || !lease.equals(r.lease)) {
            boolean cancelled = r.state == JobState.FINISHED && r.result == JobResult.CANCELLED
                    || lease != null && lease.equals(r.finishedLease) && r.finishedAs == JobResult.CANCELLED;
            throw new HaltException(type, id, cancelled ? HaltReason.CANCELLED : HaltReason.LEASE_LOST, r.state);
        }
    }

    /** Refuses a processor's call without the lease accept handed out, before any transaction. */
    public static void requireLeaseGiven(String lease) {
        if (lease == null || lease.isEmpty()) {
            throw new InvalidJobRequestException("lease", "the lease accept handed out is required");
        }
    }
}
