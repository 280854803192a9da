package io.jobfoundry.jobs.records;

import io.jobfoundry.Texts;
import io.jobfoundry.jobs.model.Attempt;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.repeat.Repeat;
import io.jobfoundry.repeat.RepeatParser;
import io.jobfoundry.repeat.RepeatRangeException;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * A run's life after it started: how it ends (succeeded, failed with attempts left or none, gone
 * quiet, cancelled) and what comes next (a retry, the next run of a series or a resubmit, or the
 * end). Every path moves the record between indexes through its own moves, in the caller's
 * transaction; the caller saves it.
 */
public final class Runs {

    private static final Logger LOG = Logger.getLogger(Runs.class);

    /** The longest {@code lastError} kept, in characters. */
    public static final int MAX_ERROR_LENGTH = 4096;

    private Runs() {
    }

    /** A run that ended well: again if resubmitted or repeating, else finished. */
    static void complete(KvTransaction tx, JobRecord r, long now) {
        long scheduled = endRun(r);
        if (r.resubmit) {
            r.resubmit = false;
            r.scheduledAt = scheduled;
            r.place(tx, now);
        } else if (r.repeat != null && repeatsAgain(r, scheduled, now)) {
            r.place(tx, now);
        } else {
            r.finish(tx, JobResult.SUCCEEDED, now);
        }
    }

    /** Due again after the backoff, and not before {@code notBefore} (microseconds; 0: no such bound). */
    static void retryLater(KvTransaction tx, JobRecord r, TypeSettings settings, long now, double jitter,
            long notBefore) {
        long backoff = settings.backoff(r.attempt).toNanos() / 1_000;
        // Equal jitter: at least half the backoff, so retries spread out yet still back off.
        retryAt(r, Math.max(notBefore, now + backoff / 2 + (long) (jitter * (backoff - backoff / 2))));
        r.place(tx, now);
    }

    /** Due again at {@code at} as a retry; the run keeps the time it was scheduled for. */
    private static void retryAt(JobRecord r, long at) {
        if (r.runScheduledAt == null) {
            r.runScheduledAt = r.scheduledAt;
        }
        r.scheduledAt = at;
        r.retry = true;
    }

    /** A client's time for a pending job: its run is due then, a retry's or not. */
    static void rescheduleRun(JobRecord r, long at) {
        r.scheduledAt = at;
        r.runScheduledAt = null;
    }

    /** A resubmit's time for a running job's next run, which a retry of this one must not take. */
    static void scheduleNextRun(JobRecord r, long at) {
        if (r.runScheduledAt != null) {
            r.runScheduledAt = at;
        } else {
            r.scheduledAt = at;
        }
    }

    /** A finished job starts over as a fresh run. */
    static void restart(JobRecord r, long at) {
        r.scheduledAt = at;
        r.runScheduledAt = null;
        r.attempt = 0;
        r.lastError = null;
        r.retry = false;
        r.resubmit = false;
        r.cancelRequested = false;
    }

    /** When the run was scheduled, a retry's or not. */
    private static long runScheduledAt(JobRecord r) {
        return r.runScheduledAt != null ? r.runScheduledAt : r.scheduledAt;
    }

    /** The run's attempts are over: answers when it was scheduled, for what comes next. */
    private static long endRun(JobRecord r) {
        long scheduled = runScheduledAt(r);
        r.runScheduledAt = null;
        r.attempt = 0;
        r.retry = false;
        return scheduled;
    }

    /** Attempts are used up: the run failed; a repeating job still moves on to its next run. */
    static void exhausted(KvTransaction tx, JobRecord r, long now) {
        if (r.resubmit) {
            r.resubmit = false;
            r.scheduledAt = endRun(r);
            r.place(tx, now);
        } else if (r.repeat != null && repeatsAgain(r, runScheduledAt(r), now)) {
            endRun(r);
            r.place(tx, now);
        } else {
            r.retry = false;
            r.runScheduledAt = null;
            r.finish(tx, JobResult.FAILED, now); // its attempts stay visible
        }
    }

    /**
     * Schedules a repeating job's next run; or, when its repeat is over, answers false and says
     * why in {@code lastError}, and the job ends with this run. A repeat is over when it gives no
     * time within the years 0000–9999, or no time after the one it counts from: checked where a
     * repeat comes in, but by samples, and a repeat stored before that check is not re-checked.
     * Either would otherwise fail every finish of the job (a 400 for a valid request) and every
     * activity check, or run it back to back for good.
     */
    private static boolean repeatsAgain(JobRecord r, long scheduled, long now) {
        Repeat repeat = RepeatParser.parse(r.repeat);
        Instant due = Times.instant(scheduled);
        Instant finished = Times.instant(now);
        Instant started = r.startedAt == null ? finished : Times.instant(r.startedAt);
        String over;
        try {
            Instant next = repeat.next(due, started, finished);
            Instant from = repeat.from(due, started, finished);
            if (next.isAfter(from)) {
                r.scheduledAt = Times.micros(next);
                return true;
            }
            over = "repeat '" + r.repeat + "' from " + from + " gives " + next + ", not a later time";
        } catch (RepeatRangeException e) {
            over = e.detail();
        }
        over += ": the job repeats no more";
        r.seriesEnd = over;
        r.lastError = Texts.truncate(r.lastError == null ? over : r.lastError + "; then " + over, MAX_ERROR_LENGTH);
        return false;
    }

    /** Logs, once its transaction has committed, that a change ended a job's series ({@link JobRecord#seriesEnd}). */
    public static void logSeriesEnd(String type, String id, String why) {
        if (why != null) {
            LOG.warnf("job %s of type %s: %s", id, type, why);
        }
    }

    /**
     * The activity monitor's move: a running job whose processor went quiet. Saves it; answers
     * whether that was the run's last attempt.
     */
    public static boolean reenqueueStale(KvTransaction tx, JobRecord r, TypeSettings settings, long now) {
        if (r.cancelRequested) {
            endCancelled(tx, r, now);
            return false;
        }
        String quiet = "activity timeout: no heartbeat or finish within "
                + TypeSettings.seconds(settings.activityTimeout()).toPlainString() + " s";
        r.attemptEnded(Attempt.Outcome.TIMED_OUT, quiet, now);
        r.stopRunning(tx);
        r.attempt++;
        r.lastError = quiet;
        boolean last = r.attempt >= r.maxAttempts;
        if (!last) {
            // The processor vanished, not the job: it may run again at once.
            retryAt(r, now);
            r.place(tx, now);
        } else {
            r.finishedAt = now;
            exhausted(tx, r, now);
        }
        r.save(tx, now);
        return last;
    }

    /**
     * The processor of a job cancelled while it ran is told to stop. The job ends cancelled,
     * unless it was added or resubmitted after the cancel: that next run is still owed. Saves it.
     */
    static Step endCancelled(KvTransaction tx, JobRecord r, long now) {
        r.finishedLease = r.lease;
        r.finishedBy = null; // no finish call ended this run
        r.finishedAs = JobResult.CANCELLED;
        r.attemptEnded(Attempt.Outcome.CANCELLED, null, now);
        r.stopRunning(tx);
        r.cancelRequested = false;
        if (r.resubmit) {
            r.resubmit = false;
            r.scheduledAt = endRun(r);
            r.place(tx, now);
        } else {
            r.runScheduledAt = null;
            r.finish(tx, JobResult.CANCELLED, now);
        }
        r.save(tx, now);
        return new Step(r.view(), HaltReason.CANCELLED);
    }

}
