package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.jobs.model.Attempt;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.VersionstampKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A job as stored: the public fields plus what the engine needs to keep its promises (the lease,
 * the activity versionstamp, a pending cancel, the request that created it). Decoded afresh in
 * every transaction attempt and changed in place there, so a retried attempt starts from the
 * store's state, never from a previous attempt's.
 *
 * <p>Stored as a tuple with a leading format number, the fields, then the activity versionstamp
 * (a record whose activity changes in this transaction is written with
 * {@code SET_VERSIONSTAMPED_VALUE} and a placeholder there), then fields added later. A release
 * reads the elements it knows by position and ignores the ones after them, so replicas of two
 * releases can share a store during a rolling upgrade, or a rollback: the older one drops what it
 * does not know when it rewrites a record, and the newer one reads their absence as null. A change
 * an older release could not read safely would take a new format number.
 */
public final class JobRecord {

    private static final long FORMAT = 1;

    final String type;
    final String id;
    JobState state;
    JobResult result;
    String data;
    String group;
    Priority priority;
    long scheduledAt;
    long createdAt;
    long updatedAt;
    Long startedAt;
    Long finishedAt;
    String repeat;
    int attempt;
    int maxAttempts;
    String lastError;
    boolean resubmit;
    String worker;
    long revision;
    String lease;
    boolean cancelRequested;
    /** Pending as a retry of a failed attempt: goes before fresh runs once due. */
    boolean retry;
    /** Pending and in the ready index (due); otherwise pending in the scheduled index. */
    boolean due;
    /** The nonce of the add that created this incarnation, to recognize its own retried attempt. */
    String origin;
    /** The lease of the last run that ended, to answer its processor's repeated calls alike. */
    String finishedLease;
    /**
     * How that run ended: a finish repeated is answered as the first only if it is the same
     * finish, and a run stopped by a cancel keeps answering "cancelled" though the job went on.
     * Null in a record written before it was kept (any finish with the lease was then a repeat).
     */
    JobResult finishedAs;
    /**
     * When the current run was scheduled, once a retry has moved {@link #scheduledAt} to its own
     * due time; null while none has. A {@code SCHEDULED} repeat counts from it, and a resubmit's
     * time for the next run is kept in it.
     */
    Long runScheduledAt;
    /**
     * The nonce of the finish call that ended the last run, so that the call's own retried attempt
     * (after an unknown commit result) is answered as the first even if the job was accepted
     * again in between. Null in a record written before it was kept.
     */
    String finishedBy;
    /** The most recent attempts ({@link History}); null until one ends, and in records written before it was kept. */
    Tuple history;
    /** Complete when read; {@code null} when not running. */
    Versionstamp activity;
    /**
     * Why the change under way ended the job's repeating series, or null. Not stored: the caller
     * logs it once the transaction has committed, so that a retried attempt does not log it twice.
     */
    String seriesEnd;

    JobRecord(String type, String id) {
        this.type = type;
        this.id = id;
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
        VersionstampKeys.Template value = encodeWithNewActivity(userVersion);
        tx.setVersionstampedValue(JobKeys.job(type, id), value.key(), value.offset());
    }

    /** Ends a running job's hold: its activity key goes, the lease dies. The caller saves the record. */
    void stopRunning(KvTransaction tx) {
        if (activity != null) {
            tx.clear(JobKeys.activity(type, activity));
        }
        activity = null;
        lease = null;
        worker = null;
        TypeCounts.add(tx, type, group, JobKeys.Counter.RUNNING, -1);
    }

    void finish(KvTransaction tx, JobResult result, long now) {
        state = JobState.FINISHED;
        this.result = result;
        finishedAt = now;
        due = false;
        TypeCounts.add(tx, type, JobKeys.Counter.of(result), 1);
        tx.set(JobKeys.finished(type, result, now, id), new byte[0]);
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
                History.view(history));
    }

    /** The fields before the activity stamp. */
    private Tuple head() {
        List<Object> items = new ArrayList<>(24);
        items.add(FORMAT);
        items.add((long) state.ordinal());
        items.add(result == null ? null : (long) result.ordinal());
        items.add(data == null ? null : data.getBytes(StandardCharsets.UTF_8));
        items.add(group);
        items.add((long) priority.ordinal());
        items.add(scheduledAt);
        items.add(createdAt);
        items.add(updatedAt);
        items.add(startedAt);
        items.add(finishedAt);
        items.add(repeat);
        items.add((long) attempt);
        items.add((long) maxAttempts);
        items.add(lastError);
        items.add(resubmit);
        items.add(worker);
        items.add(revision);
        items.add(lease);
        items.add(cancelRequested);
        items.add(retry);
        items.add(origin);
        items.add(finishedLease);
        items.add(due);
        return Tuple.fromList(items);
    }

    /** The fields after the activity stamp, added since: absent in records of earlier releases. */
    private Tuple tail() {
        return Tuple.from(finishedAs == null ? null : (long) finishedAs.ordinal(), runScheduledAt, finishedBy, history);
    }

    /** The record with its current (complete or absent) activity stamp. */
    byte[] encode() {
        return head().addObject(activity).addAll(tail()).pack();
    }

    /** The record with a placeholder for this transaction's versionstamp as its activity. */
    private VersionstampKeys.Template encodeWithNewActivity(int userVersion) {
        return VersionstampKeys.key(head(), userVersion, tail());
    }

    static JobRecord decode(String type, String id, byte[] bytes) {
        Tuple t = Tuple.fromBytes(bytes);
        if (t.getLong(0) != FORMAT) {
            throw new IllegalStateException("unknown job record format " + t.getLong(0));
        }
        JobRecord r = new JobRecord(type, id);
        r.state = JobState.values()[(int) t.getLong(1)];
        r.result = t.get(2) == null ? null : JobResult.values()[(int) t.getLong(2)];
        byte[] data = t.getBytes(3);
        r.data = data == null ? null : new String(data, StandardCharsets.UTF_8);
        r.group = t.getString(4);
        r.priority = Priority.values()[(int) t.getLong(5)];
        r.scheduledAt = t.getLong(6);
        r.createdAt = t.getLong(7);
        r.updatedAt = t.getLong(8);
        r.startedAt = (Long) t.get(9);
        r.finishedAt = (Long) t.get(10);
        r.repeat = t.getString(11);
        r.attempt = (int) t.getLong(12);
        r.maxAttempts = (int) t.getLong(13);
        r.lastError = t.getString(14);
        r.resubmit = t.getBoolean(15);
        r.worker = t.getString(16);
        r.revision = t.getLong(17);
        r.lease = t.getString(18);
        r.cancelRequested = t.getBoolean(19);
        r.retry = t.getBoolean(20);
        r.origin = t.getString(21);
        r.finishedLease = t.getString(22);
        r.due = t.getBoolean(23);
        r.activity = t.getVersionstamp(24);
        if (t.size() > 25) { // written by a release that keeps them
            r.finishedAs = t.get(25) == null ? null : JobResult.values()[(int) t.getLong(25)];
            r.runScheduledAt = (Long) t.get(26);
        }
        if (t.size() > 27) {
            r.finishedBy = t.getString(27);
        }
        if (t.size() > 28) {
            r.history = t.getNestedTuple(28);
        }
        return r;
    }
}
