package io.jobfoundry.jobs;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.kv.VersionstampKeys;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
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
final class JobRecord {

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

    Job view() {
        return new Job(type, id, state, result, data, group, priority, Times.instant(scheduledAt),
                Times.instant(createdAt), Times.instant(updatedAt), Times.instantOrNull(startedAt),
                Times.instantOrNull(finishedAt), repeat, attempt, maxAttempts, lastError, resubmit, worker, revision);
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
        return Tuple.from(finishedAs == null ? null : (long) finishedAs.ordinal(), runScheduledAt, finishedBy);
    }

    /** The record with its current (complete or absent) activity stamp. */
    byte[] encode() {
        return head().addObject(activity).addAll(tail()).pack();
    }

    /** The record with a placeholder for this transaction's versionstamp as its activity. */
    VersionstampKeys.Template encodeWithNewActivity(int userVersion) {
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
        return r;
    }
}
