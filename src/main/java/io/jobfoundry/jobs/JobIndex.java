package io.jobfoundry.jobs;

import io.jobfoundry.jobs.JobKeys.Counter;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.VersionstampKeys;

/**
 * The moves of a job between the indexes of {@link JobKeys}, with the counters and watch keys
 * that go with them. Every state change of the engine is made of these, so the indexes and the
 * counters cannot drift from the records.
 */
final class JobIndex {

    private JobIndex() {
    }

    static JobRecord load(KvTransaction tx, String type, String id) {
        byte[] value = tx.get(JobKeys.job(type, id));
        return value == null ? null : JobRecord.decode(type, id, value);
    }

    /** Writes the record as changed at {@code now}. */
    static void save(KvTransaction tx, JobRecord r, long now) {
        touch(r, now);
        tx.set(JobKeys.job(r.type, r.id), r.encode());
    }

    /** Writes the record without counting it as a change clients see (index moves only). */
    static void store(KvTransaction tx, JobRecord r) {
        tx.set(JobKeys.job(r.type, r.id), r.encode());
    }

    /** Writes the record with this transaction's versionstamp as its activity. */
    static void saveWithNewActivity(KvTransaction tx, JobRecord r, long now, int userVersion) {
        touch(r, now);
        VersionstampKeys.Template value = r.encodeWithNewActivity(userVersion);
        tx.setVersionstampedValue(JobKeys.job(r.type, r.id), value.key(), value.offset());
    }

    private static void touch(JobRecord r, long now) {
        r.updatedAt = now;
        r.revision++;
    }

    /** Puts a pending job in the ready index if due at {@code now}, else in the scheduled one. */
    static void place(KvTransaction tx, JobRecord r, long now) {
        place(tx, r, now, true);
    }

    /**
     * {@link #place(KvTransaction, JobRecord, long)}; a job that is ready wakes the accepts waiting
     * for its type only if {@code announce}. Without, the caller either takes the job in the same
     * transaction, so nothing became ready that anyone could see, or calls {@link #announceReady}.
     */
    static void place(KvTransaction tx, JobRecord r, long now, boolean announce) {
        r.state = JobState.PENDING;
        r.result = null;
        if (r.scheduledAt <= now) {
            enterReady(tx, r);
            if (announce) {
                announceReady(tx, r.type);
            }
        } else {
            r.due = false;
            tx.set(JobKeys.scheduled(r.type, r.scheduledAt, r.id), new byte[0]);
            count(tx, r.type, Counter.SCHEDULED, 1);
            // An atomic add: concurrent schedulers never conflict on it.
            tx.add(JobKeys.scheduledWatch(), 1);
        }
    }

    /** Moves a scheduled job whose time has come into the ready index. */
    static void promote(KvTransaction tx, JobRecord r) {
        tx.clear(JobKeys.scheduled(r.type, r.scheduledAt, r.id));
        count(tx, r.type, Counter.SCHEDULED, -1);
        enterReady(tx, r);
        announceReady(tx, r.type);
    }

    private static void enterReady(KvTransaction tx, JobRecord r) {
        r.due = true;
        tx.set(JobKeys.ready(r.type, r.group, r.priority, r.retry, r.scheduledAt, r.id), new byte[0]);
        tx.set(JobKeys.group(r.type, r.group), new byte[0]);
        count(tx, r.type, Counter.READY, 1);
    }

    /** Wakes the accepts waiting for {@code type}, here and on every replica. */
    static void announceReady(KvTransaction tx, String type) {
        tx.add(JobKeys.readyWatch(type), 1);
        tx.add(JobKeys.anyReadyWatch(), 1);
    }

    /** Takes a pending job out of whichever index holds it. */
    static void unplace(KvTransaction tx, JobRecord r) {
        if (r.due) {
            tx.clear(JobKeys.ready(r.type, r.group, r.priority, r.retry, r.scheduledAt, r.id));
            count(tx, r.type, Counter.READY, -1);
        } else {
            tx.clear(JobKeys.scheduled(r.type, r.scheduledAt, r.id));
            count(tx, r.type, Counter.SCHEDULED, -1);
        }
        r.due = false;
    }

    /** Marks the job running under {@code lease}; its activity is this transaction's versionstamp. */
    static void startRunning(KvTransaction tx, JobRecord r, String lease, String worker, long now, int userVersion) {
        r.state = JobState.RUNNING;
        r.lease = lease;
        r.worker = worker;
        r.startedAt = now;
        count(tx, r.type, Counter.RUNNING, 1);
        recordActivity(tx, r, now, userVersion);
    }

    /** Renews a running job's activity: a new versionstamped activity key replaces the old one. */
    static void recordActivity(KvTransaction tx, JobRecord r, long now, int userVersion) {
        if (r.activity != null) {
            tx.clear(JobKeys.activity(r.type, r.activity));
        }
        VersionstampKeys.Template key = JobKeys.activityTemplate(r.type, userVersion);
        tx.setVersionstampedKey(key.key(), key.offset(), com.apple.foundationdb.tuple.Tuple.from(r.id).pack());
        byte[] latest = new byte[12];
        latest[10] = (byte) (userVersion >>> 8);
        latest[11] = (byte) userVersion;
        tx.setVersionstampedValue(JobKeys.latestActivity(r.type), latest, 0);
        saveWithNewActivity(tx, r, now, userVersion);
    }

    /** Ends a running job's hold: its activity key goes, the lease dies. The caller saves the record. */
    static void stopRunning(KvTransaction tx, JobRecord r) {
        if (r.activity != null) {
            tx.clear(JobKeys.activity(r.type, r.activity));
        }
        r.activity = null;
        r.lease = null;
        r.worker = null;
        count(tx, r.type, Counter.RUNNING, -1);
    }

    static void finish(KvTransaction tx, JobRecord r, JobResult result, long now) {
        r.state = JobState.FINISHED;
        r.result = result;
        r.finishedAt = now;
        r.due = false;
        count(tx, r.type, counterOf(result), 1);
    }

    /** Forgets a finished job's result, when it runs again or is removed. */
    static void unfinish(KvTransaction tx, JobRecord r) {
        count(tx, r.type, counterOf(r.result), -1);
        r.result = null;
    }

    /** Takes the job out of every index, whatever its state; the caller clears or rewrites the record. */
    static void detach(KvTransaction tx, JobRecord r) {
        switch (r.state) {
            case PENDING -> unplace(tx, r);
            case RUNNING -> stopRunning(tx, r);
            case FINISHED -> unfinish(tx, r);
        }
    }

    private static Counter counterOf(JobResult result) {
        return switch (result) {
            case SUCCEEDED -> Counter.SUCCEEDED;
            case FAILED -> Counter.FAILED;
            case CANCELLED -> Counter.CANCELLED;
        };
    }

    static void count(KvTransaction tx, String type, Counter counter, long delta) {
        tx.add(JobKeys.count(type, counter), delta);
    }
}
