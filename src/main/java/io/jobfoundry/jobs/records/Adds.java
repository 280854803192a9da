package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.KvTransaction;
import java.util.Arrays;

/**
 * couch_jobs' {@code add}: a new job is pending; a pending one takes the changes; a running one
 * is flagged to run again when it finishes; a finished one is pending again.
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
        TypeSettings settings = TypeRegistry.ensure(tx, type);
        JobRecord r = JobRecord.load(tx, type, id);
        if (r == null) {
            r = newRecord(type, id, valid, settings, now, nonce);
            r.place(tx, now, announce);
            r.save(tx, now);
            return new Added(r.view(), true);
        }
        if (nonce.equals(r.origin)) {
            return new Added(r.view(), true); // our own earlier attempt committed
        }
        switch (r.state) {
            case PENDING -> {
                byte[] before = r.encode();
                apply(r, valid);
                if (Arrays.equals(before, r.encode()) && (r.due || r.scheduledAt > now)) {
                    // The same job again (a client's retried PUT): nothing to write, no event, no
                    // new updatedAt, nobody to wake. (One due but not yet moved to the ready
                    // index is placed again below, as before: that wakes its workers now.)
                    return new Added(r.view(), false);
                }
                // Changed before it was known whether anything changed: out of the index it is in
                // as stored, back in as changed.
                JobRecord.decode(type, id, before).unplace(tx);
                r.due = false;
                r.place(tx, now, announce);
            }
            case RUNNING -> {
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
                apply(r, valid);
                Runs.restart(r, valid.scheduledAt().orElse(now));
                r.place(tx, now, announce);
            }
        }
        r.save(tx, now);
        return new Added(r.view(), false);
    }

    private static JobRecord newRecord(String type, String id, ValidChanges v, TypeSettings settings, long now,
            String nonce) {
        JobRecord r = new JobRecord(type, id);
        r.state = JobState.PENDING;
        r.data = v.data().orElse(null);
        r.group = v.group().orElse("");
        r.priority = v.priority().orElse(Priority.LOW);
        r.scheduledAt = v.scheduledAt().orElse(now);
        r.createdAt = now;
        r.repeat = v.repeat().orElse(null);
        r.maxAttempts = v.maxAttempts().orElse(settings.maxAttempts());
        r.origin = nonce;
        return r;
    }

    /** Every change to a pending job, index fields included: the caller moves it between indexes. */
    static void apply(JobRecord r, ValidChanges v) {
        r.data = v.data().orElse(r.data);
        v.scheduledAt().ifPresent(at -> Runs.rescheduleRun(r, at));
        r.group = v.group().orElse(r.group);
        applyToRunning(r, v);
    }

    /** What may change while a job runs, without touching its indexes. */
    static void applyToRunning(JobRecord r, ValidChanges v) {
        r.priority = v.priority().orElse(r.priority);
        r.repeat = v.repeat().orElse(r.repeat);
        r.maxAttempts = v.maxAttempts().orElse(r.maxAttempts);
    }
}
