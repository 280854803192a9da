package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.AfterFailure;
import io.jobfoundry.jobs.model.JobConflictException;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.KvTransaction;
import java.util.Arrays;

/**
 * couch_jobs' {@code add}: a new job is pending; a pending one takes the changes; a running one
 * is flagged to run again when it finishes; a finished one is pending again (a new job with a
 * cron repeat and no {@code scheduledAt}: from the cron's first slot, {@link
 * ValidChanges#firstRun}). With {@code after}, a pending job waits for those jobs ({@link
 * Dependencies}): a new one, a pending one (whose dependencies it replaces) and a finished one (a
 * fresh run, which waits for the {@code after} it carries and for none without); a running one
 * refuses it ({@code 409}).
 */
public final class Adds {

    private Adds() {
    }

    /**
     * The body of an add of job {@code id}; {@code nonce}, drawn before the transaction, lets a
     * retried attempt recognize that its own earlier attempt committed. A job made ready wakes the
     * waiting accepts only if {@code announce}.
     */
    public static Added add(KvTransaction tx, String type, String id, ValidChanges valid, long now, String nonce,
            boolean announce) {
        return add(tx, TypeRegistry.ensure(tx, type), type, id, valid, now, nonce, announce);
    }

    /**
     * {@link #add} with the type's {@code settings} as {@link TypeRegistry#ensure} answered them
     * earlier in the same transaction: a batch of creates reads each of its types once, not once
     * per job.
     */
    public static Added add(KvTransaction tx, TypeSettings settings, String type, String id, ValidChanges valid, long now,
            String nonce, boolean announce) {
        JobRecord r = JobRecord.load(tx, type, id);
        if (r == null) {
            r = newRecord(type, id, valid, settings, now, nonce);
            placeWaiting(tx, r, valid.after().given() && Dependencies.wire(tx, r, valid.after().value(), true), now,
                    announce);
            r.save(tx, now);
            return new Added(r.view(), true);
        }
        if (Tokens.sameCall(r.origin, nonce)) {
            return new Added(r.view(), true); // our own earlier attempt committed
        }
        if (Tokens.sameCall(r.changedBy, nonce)) {
            return new Added(r.view(), false); // the same, for a job that existed
        }
        r.changedBy = nonce;
        switch (r.state) {
            case PENDING -> {
                byte[] before = r.encode();
                apply(r, valid, now);
                // A PUT with after replaces the dependencies (those already done are not waited for again).
                boolean blocked = valid.after().given() && Dependencies.wire(tx, r, valid.after().value(), false);
                if (!blocked && Arrays.equals(before, r.encode()) && (r.due || r.scheduledAt > now || r.parked())) {
                    // The same job again (a client's retried PUT): no change clients see, no
                    // event, no new updatedAt, nobody to wake; only a keyed call's nonce is kept.
                    // (One due but not yet moved to the ready index is placed again below, as
                    // before: that wakes its workers now.)
                    r.unchangedBy(tx, nonce);
                    return new Added(r.view(), false);
                }
                // Changed before it was known whether anything changed: out of the index it is in
                // as stored, back in as changed.
                JobRecord.decode(type, id, before).unplace(tx);
                r.due = false;
                placeWaiting(tx, r, blocked, now, announce);
            }
            case RUNNING -> {
                if (valid.after().given()) {
                    // Its next run would have to wait while this one runs: not worth the states it
                    // would take; the client adds it again once it has finished.
                    throw new JobConflictException("after changes only while the job is pending or finished; "
                            + "job " + id + " of type " + type + " is running", type, id, r.state, "after");
                }
                // As resubmit: runs again when it finishes, at the given time, in the given group.
                r.resubmit = true;
                applyToRunning(r, valid);
                if (valid.scheduledAt().isPresent()) {
                    Runs.scheduleNextRun(r, valid.scheduledAt().get());
                }
                r.regroupWhileRunning(tx, valid.group().orElse(r.group));
            }
            case FINISHED -> {
                r.unfinish(tx);
                apply(r, valid, now);
                Runs.restart(r, valid.scheduledAt().orElse(now));
                // A fresh run: it waits for the after it carries, none if it carries none.
                Dependencies.forget(tx, r);
                placeWaiting(tx, r, valid.after().given() && Dependencies.wire(tx, r, valid.after().value(), false),
                        now, announce);
            }
        }
        r.save(tx, now);
        return new Added(r.view(), false);
    }

    /** Places a job in no index: in one (or parked), or finished cancelled if a dependency {@code blocked} it. */
    private static void placeWaiting(KvTransaction tx, JobRecord r, boolean blocked, long now, boolean announce) {
        if (blocked) {
            Dependencies.cancelBlocked(tx, r, now);
        } else {
            r.place(tx, now, announce);
        }
    }

    private static JobRecord newRecord(String type, String id, ValidChanges v, TypeSettings settings, long now,
            String nonce) {
        JobRecord r = new JobRecord(type, id);
        r.state = JobState.PENDING;
        r.data = v.data().orElse(null);
        r.group = v.group().orElse("");
        r.priority = v.priority().orElse(Priority.LOW);
        r.scheduledAt = v.firstRun(now);
        r.createdAt = now;
        r.repeat = v.repeat().orElse(null);
        r.maxAttempts = v.maxAttempts().orElse(settings.maxAttempts());
        r.origin = nonce;
        r.runAfterFailure = v.afterFailure().orElse(AfterFailure.CANCEL) == AfterFailure.RUN;
        return r;
    }

    /**
     * Every change to a pending job, index fields included: the caller moves it between indexes. A
     * pending run whose repeat becomes another cron expression, with no time given, moves to that
     * expression's first slot after {@code now}, as a changed crontab line does: its old time was on
     * the old grid. A retry keeps its time (its run is under way), and so does a run whose repeat
     * becomes a Bedrock one, which counts from the run's own times.
     */
    static void apply(JobRecord r, ValidChanges v, long now) {
        r.data = v.data().orElse(r.data);
        if (v.scheduledAt().isPresent()) {
            Runs.rescheduleRun(r, v.scheduledAt().get());
        } else if (v.cron() != null && !r.retry && !v.repeat().value().equals(r.repeat)) {
            Runs.rescheduleRun(r, v.firstRun(now));
        }
        r.group = v.group().orElse(r.group);
        applyToRunning(r, v);
    }

    /** What may change while a job runs, without touching its indexes. */
    static void applyToRunning(JobRecord r, ValidChanges v) {
        r.priority = v.priority().orElse(r.priority);
        r.repeat = v.repeat().orElse(r.repeat);
        r.maxAttempts = v.maxAttempts().orElse(r.maxAttempts);
        if (v.afterFailure().given()) {
            r.runAfterFailure = v.afterFailure().value() == AfterFailure.RUN;
        }
    }
}
