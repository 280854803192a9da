package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.jobs.model.AfterFailure;
import io.jobfoundry.jobs.model.Attempt;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.VersionstampKeys;

/**
 * A job as stored: the public fields plus what the engine needs to keep its promises (the lease,
 * the activity versionstamp, a pending cancel, the request that created it). Decoded afresh in
 * every transaction attempt and changed in place there, so a retried attempt starts from the
 * store's state, never from a previous attempt's.
 *
 * <p>Its fields are {@link RecordFields}; stored as one value in {@link RecordFormat}, readable
 * across releases.
 */
public final class JobRecord extends RecordFields {

    JobRecord(String type, String id) {
        super(type, id);
    }

    // ---- loading and saving ----------------------------------------------------------------------

    /** The job's record as this transaction sees it, or null if there is no such job. */
    public static JobRecord load(KvTransaction tx, String type, String id) {
        byte[] value = tx.get(JobKeys.job(type, id));
        return value == null ? null : decode(type, id, value);
    }

    /** Writes the record as changed at {@code now}. */
    void save(KvTransaction tx, long now) {
        touch(now);
        tx.set(JobKeys.job(type, id), encode());
    }

    /** Writes the record without counting it as a change clients see (index moves only). */
    void store(KvTransaction tx) {
        tx.set(JobKeys.job(type, id), encode());
    }

    /**
     * An add or resubmit ({@link #changedBy}) that found nothing to change: one a client named with
     * a key still leaves its nonce, without counting as a change, so that its repeat, once a worker
     * has taken the job, is known for that call and not run as a new one. The service's own calls
     * need no write: their retries see the same job again.
     */
    void unchangedBy(KvTransaction tx, String nonce) {
        changedBy = nonce;
        if (Tokens.keyed(nonce)) {
            store(tx);
        }
    }

    private void touch(long now) {
        updatedAt = now;
        revision++;
    }

    // ---- moves between the indexes of JobKeys ------------------------------------------------------
    // Every state change of the engine is made of these, so the indexes and the counters cannot
    // drift from the records: a pending job's index key is made of its group, priority, retry flag
    // and time, so those change only between unplace and place (reposition).

    /** Puts a pending job in the ready index if due at {@code now}, else in the scheduled one. */
    void place(KvTransaction tx, long now) {
        place(tx, now, true);
    }

    /**
     * {@link #place(KvTransaction, long)}; a job that is ready wakes the accepts waiting for its
     * type only if {@code announce}. Without, the caller either takes the job in the same
     * transaction, so nothing became ready that anyone could see, or calls {@link #announceReady}.
     */
    void place(KvTransaction tx, long now, boolean announce) {
        state = JobState.PENDING;
        result = null;
        if (!waitingFor.isEmpty()) {
            // Parked: not due until its dependencies are done, so in no index; counted as
            // scheduled (pending, not due), in its type and its group.
            due = false;
            TypeCounts.add(tx, type, group, JobKeys.Counter.SCHEDULED, 1);
            return;
        }
        tx.set(JobKeys.pending(type, scheduledAt, id), new byte[0]);
        if (scheduledAt <= now) {
            enterReady(tx);
            if (announce) {
                announceReady(tx, type);
            }
        } else {
            due = false;
            tx.set(JobKeys.scheduled(type, scheduledAt, id), new byte[0]);
            TypeCounts.add(tx, type, group, JobKeys.Counter.SCHEDULED, 1);
            // An atomic add: concurrent schedulers never conflict on it.
            tx.add(JobKeys.scheduledWatch(), 1);
        }
    }

    /**
     * Changes what a pending job's index key is made of (time, group, priority): out of its
     * index, changed, back in (ready or scheduled by its new time).
     */
    void reposition(KvTransaction tx, long now, boolean announce, Runnable change) {
        unplace(tx);
        change.run();
        place(tx, now, announce);
    }

    /** Moves a scheduled job whose time has come into the ready index, and stores it. */
    public void promote(KvTransaction tx) {
        tx.clear(JobKeys.scheduled(type, scheduledAt, id));
        TypeCounts.add(tx, type, group, JobKeys.Counter.SCHEDULED, -1);
        enterReady(tx);
        announceReady(tx, type);
        store(tx);
    }

    private void enterReady(KvTransaction tx) {
        due = true;
        tx.set(JobKeys.ready(type, group, priority, retry, scheduledAt, id), new byte[0]);
        tx.set(JobKeys.group(type, group), new byte[0]);
        TypeCounts.add(tx, type, group, JobKeys.Counter.READY, 1);
    }

    /** Wakes the accepts waiting for {@code type}, here and on every replica. */
    public static void announceReady(KvTransaction tx, String type) {
        tx.add(JobKeys.readyWatch(type), 1);
        tx.add(JobKeys.anyReadyWatch(), 1);
    }

    /** Takes a pending job out of whichever index holds it. */
    public void unplace(KvTransaction tx) {
        if (parked()) {
            TypeCounts.add(tx, type, group, JobKeys.Counter.SCHEDULED, -1);
            return;
        }
        tx.clear(JobKeys.pending(type, scheduledAt, id));
        if (due) {
            tx.clear(JobKeys.ready(type, group, priority, retry, scheduledAt, id));
            TypeCounts.add(tx, type, group, JobKeys.Counter.READY, -1);
        } else {
            tx.clear(JobKeys.scheduled(type, scheduledAt, id));
            TypeCounts.add(tx, type, group, JobKeys.Counter.SCHEDULED, -1);
        }
        due = false;
    }

    /**
     * Marks the job, taken out of the ready index, running under {@code lease}; its activity is
     * this transaction's versionstamp (the {@code userVersion}th of the transaction). Saves it.
     */
    public void startRunning(KvTransaction tx, String lease, String worker, long now, int userVersion) {
        state = JobState.RUNNING;
        this.lease = lease;
        this.worker = worker;
        startedAt = now;
        TypeCounts.add(tx, type, group, JobKeys.Counter.RUNNING, 1);
        recordActivity(tx, now, userVersion);
    }

    /** The concurrency permits an accept took for this job, which it starts running in the same transaction. */
    public void holdSlots(HeldSlots held) {
        slots = held;
    }

    /** Renews a running job's activity: a new versionstamped activity key replaces the old one. Saves it. */
    void recordActivity(KvTransaction tx, long now, int userVersion) {
        if (activity != null) {
            tx.clear(JobKeys.activity(type, activity));
        }
        VersionstampKeys.Template key = JobKeys.activityTemplate(type, userVersion);
        tx.setVersionstampedKey(key.key(), key.offset(), JobKeys.activityValue(id));
        byte[] latest = new byte[12];
        latest[10] = (byte) (userVersion >>> 8);
        latest[11] = (byte) userVersion;
        tx.setVersionstampedValue(JobKeys.latestActivity(type), latest, 0);
        touch(now);
        VersionstampKeys.Template value = RecordFormat.encodeWithNewActivity(this, userVersion);
        tx.setVersionstampedValue(JobKeys.job(type, id), value.key(), value.offset());
    }

    /**
     * Ends a running job's hold: its activity key goes, the lease dies, its concurrency permits go
     * back (waking blocked accepts at once). Every path out of running comes here: finish, failure,
     * activity timeout, a cancel carried out, release, removal. The caller saves the record.
     */
    void stopRunning(KvTransaction tx) {
        if (activity != null) {
            tx.clear(JobKeys.activity(type, activity));
        }
        if (slots != null) {
            giveBack(tx, slots);
            slots = null;
        }
        activity = null;
        lease = null;
        worker = null;
        TypeCounts.add(tx, type, group, JobKeys.Counter.RUNNING, -1);
    }

    /**
     * Gives a stopping job's permits back: blind clears, which conflict with nobody but an accept
     * that read the slot with a conflict; then wakes the accepts blocked on the type, on every
     * replica (atomic adds). A group permit also puts the group back in the accept ring: an accept
     * that found the group full took its marker out, and only this brings it back while nothing
     * new becomes ready in it.
     */
    private void giveBack(KvTransaction tx, HeldSlots held) {
        if (held.typeSlot() != null) {
            tx.clear(SlotKeys.typeSlots(type).slot(held.typeSlot()));
        }
        if (held.groupSlot() != null) {
            tx.clear(SlotKeys.groupSlots(type, held.group()).slot(held.groupSlot()));
            tx.set(JobKeys.group(type, held.group()), new byte[0]);
        }
        announceReady(tx, type);
    }

    void finish(KvTransaction tx, JobResult result, long now) {
        state = JobState.FINISHED;
        this.result = result;
        finishedAt = now;
        due = false;
        TypeCounts.add(tx, type, JobKeys.Counter.of(result), 1);
        tx.set(JobKeys.finished(type, result, now, id), new byte[0]);
        DependencyMarks.finished(tx, type, id, origin, result, now); // others waiting for it are told
    }

    /**
     * Adds the run's attempt that ends now to the history ({@link History}): called before the
     * lease and worker are cleared, while {@code attempt} still counts the failures before it.
     */
    void attemptEnded(Attempt.Outcome outcome, String error, long now) {
        history = History.withAttempt(history, attempt + 1, startedAt, now, outcome, error, worker);
    }

    /** Moves a running job's count to the group it will run in next (a client's add while it runs). */
    void regroupWhileRunning(KvTransaction tx, String next) {
        if (!next.equals(group)) {
            TypeCounts.add(tx, type, group, JobKeys.Counter.RUNNING, -1);
            TypeCounts.add(tx, type, next, JobKeys.Counter.RUNNING, 1);
            group = next;
        }
    }

    /**
     * Whether this is still the finish a finished-index key {@code ("f", type, result, at, id)}
     * names: a job run again, or finished again since, is not (retention and the recent listing ask).
     */
    boolean finishedAs(JobResult result, long at) {
        return state == JobState.FINISHED && this.result == result && finishedAt != null && finishedAt == at;
    }

    /** Forgets a finished job's result, when it runs again or is removed. */
    void unfinish(KvTransaction tx) {
        TypeCounts.add(tx, type, JobKeys.Counter.of(result), -1);
        if (finishedAt != null) {
            tx.clear(JobKeys.finished(type, result, finishedAt, id));
        }
        result = null;
    }

    /** Takes the job out of every index, whatever its state; the caller clears or rewrites the record. */
    void detach(KvTransaction tx) {
        switch (state) {
            case PENDING -> unplace(tx);
            case RUNNING -> stopRunning(tx);
            case FINISHED -> unfinish(tx);
        }
    }

    // ---- what other parts of the engine read --------------------------------------------------------

    public String type() {
        return type;
    }

    public String id() {
        return id;
    }

    public JobState state() {
        return state;
    }

    public String group() {
        return group;
    }

    public Priority priority() {
        return priority;
    }

    /** Pending, waiting for other jobs, in no index ({@link Dependencies}). */
    public boolean parked() {
        return state == JobState.PENDING && !waitingFor.isEmpty();
    }

    /** Pending and in the ready index. */
    public boolean due() {
        return due;
    }

    public long scheduledAt() {
        return scheduledAt;
    }

    public String lease() {
        return lease;
    }

    /** The versionstamp of the running job's last activity; null when not running. */
    public Versionstamp activity() {
        return activity;
    }

    /** Why the change under way ended the job's repeating series, or null ({@link #seriesEnd}). */
    public String seriesEnd() {
        return seriesEnd;
    }

    // ---- stored form ----------------------------------------------------------------------------

    /** The job as clients see it. */
    public Job view() {
        return new Job(type, id, state, result, data, group, priority, Times.instant(scheduledAt),
                Times.instant(createdAt), Times.instant(updatedAt), Times.instantOrNull(startedAt),
                Times.instantOrNull(finishedAt), repeat, attempt, maxAttempts, lastError, resubmit, worker, revision,
                History.view(history), after, runAfterFailure ? AfterFailure.RUN : AfterFailure.CANCEL, waitingFor,
                blockedBy);
    }

    /** The record with its current (complete or absent) activity stamp ({@link RecordFormat}). */
    byte[] encode() {
        return RecordFormat.encode(this);
    }

    static JobRecord decode(String type, String id, byte[] bytes) {
        return RecordFormat.decode(bytes, new JobRecord(type, id));
    }
}
