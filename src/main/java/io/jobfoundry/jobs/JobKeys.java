package io.jobfoundry.jobs;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.kv.VersionstampKeys;
import java.util.Arrays;

/**
 * The data model: every key the engine writes, tuple-encoded (couch_jobs' layout, extended with
 * fairness groups, priorities, retries and scheduling). Short first elements keep the many index
 * keys small.
 *
 * <pre>
 * ("t", type)                                  → type settings                  registry of types
 * ("j", type, id)                              → job record ({@link JobRecord})  one per job
 * ("s", type, scheduledAt, id)                 → ""   pending, not yet due       the due-time waker promotes
 * ("r", type, group, priority, kind, at, id)   → ""   pending and due            what accept hands out
 * ("g", type, group)                           → ""   groups that may have ready jobs (cleared lazily)
 * ("a", type, versionstamp)                    → id   running jobs, by last activity in commit order
 * ("v", type)                                  → versionstamp of the type's latest activity
 * ("w", type), ("w")                           → counter bumped when a job of the type / any type becomes ready
 * ("d")                                        → counter bumped when a job is scheduled for later (wakes due timers)
 * ("c", type, counter)                         → counter (atomic ADD) of jobs per state and result
 * ("o", at, nonce)                             → the outcome of an accept, so a retried accept after
 *                                                 commit_unknown_result returns the same jobs
 * </pre>
 *
 * <p>Times in keys are microseconds since the epoch. {@code kind} is 0 for a retry whose time has
 * come and 1 for a fresh run, so retries go first within a priority (docspell's preference for due
 * stuck jobs). Accept reads a bounded number of keys whatever the number of pending jobs: the next
 * group after its round-robin cursor in {@code "g"}, then the first keys of that group in {@code "r"},
 * which come in class order (a class needs a read of its own only when earlier ones fill the
 * window). Jobs scheduled for later never sit in {@code "r"}, so idle groups cost
 * nothing. The activity monitor never compares clocks of different machines: it compares
 * versionstamps, which are commit order (couch_jobs).
 */
final class JobKeys {

    private static final byte[] END = {(byte) 0xFF};

    private JobKeys() {
    }

    static byte[] type(String type) {
        return Tuple.from("t", type).pack();
    }

    static byte[] typesBegin() {
        return begin(Tuple.from("t"));
    }

    static byte[] typesEnd() {
        return end(Tuple.from("t"));
    }

    static byte[] job(String type, String id) {
        return Tuple.from("j", type, id).pack();
    }

    static byte[] jobsBegin(String type) {
        return begin(Tuple.from("j", type));
    }

    static byte[] jobsEnd(String type) {
        return end(Tuple.from("j", type));
    }

    /** The first job key after {@code id}: where a listing continues. */
    static byte[] jobsAfter(String type, String id) {
        return concat(job(type, id), new byte[] {0x00});
    }

    static byte[] scheduled(String type, long at, String id) {
        return Tuple.from("s", type, at, id).pack();
    }

    static byte[] scheduledBegin(String type) {
        return begin(Tuple.from("s", type));
    }

    /** The end of the scheduled jobs due at or before {@code at}. */
    static byte[] scheduledThrough(String type, long at) {
        return Tuple.from("s", type, at + 1).pack();
    }

    static byte[] scheduledEnd(String type) {
        return end(Tuple.from("s", type));
    }

    static byte[] ready(String type, String group, Priority priority, boolean retry, long at, String id) {
        return Tuple.from("r", type, group, priority.rank(), kind(retry), at, id).pack();
    }

    static Tuple readyClass(String type, String group, Priority priority, boolean retry) {
        return Tuple.from("r", type, group, priority.rank(), kind(retry));
    }

    /** Where a class sorts among a group's ready keys: by priority, then retries before fresh runs. */
    static int readyClassOrder(Priority priority, boolean retry) {
        return classOrder(priority.rank(), kind(retry));
    }

    /** {@link #readyClassOrder} of a decoded ready key. */
    static int readyClassOrder(Tuple readyKey) {
        return classOrder(readyKey.getLong(3), readyKey.getLong(4));
    }

    private static int kind(boolean retry) {
        return retry ? 0 : 1;
    }

    private static int classOrder(long priorityRank, long kind) {
        return (int) (priorityRank * 2 + kind);
    }

    static byte[] readyGroupBegin(String type, String group) {
        return begin(Tuple.from("r", type, group));
    }

    static byte[] readyGroupEnd(String type, String group) {
        return end(Tuple.from("r", type, group));
    }

    static byte[] group(String type, String group) {
        return Tuple.from("g", type, group).pack();
    }

    static byte[] groupsBegin(String type) {
        return begin(Tuple.from("g", type));
    }

    static byte[] groupsAfter(String type, String group) {
        return concat(group(type, group), new byte[] {0x00});
    }

    static byte[] groupsEnd(String type) {
        return end(Tuple.from("g", type));
    }

    static VersionstampKeys.Template activityTemplate(String type, int userVersion) {
        return VersionstampKeys.key(Tuple.from("a", type), userVersion, new Tuple());
    }

    static byte[] activity(String type, Versionstamp stamp) {
        return Tuple.from("a", type, stamp).pack();
    }

    static byte[] activityBegin(String type) {
        return begin(Tuple.from("a", type));
    }

    /** The end of the activity keys at or before {@code stamp}. */
    static byte[] activityThrough(String type, Versionstamp stamp) {
        return concat(activity(type, stamp), new byte[] {0x00});
    }

    static byte[] latestActivity(String type) {
        return Tuple.from("v", type).pack();
    }

    static byte[] readyWatch(String type) {
        return Tuple.from("w", type).pack();
    }

    static byte[] anyReadyWatch() {
        return Tuple.from("w").pack();
    }

    static byte[] scheduledWatch() {
        return Tuple.from("d").pack();
    }

    static byte[] count(String type, Counter counter) {
        return Tuple.from("c", type, counter.key).pack();
    }

    static byte[] countsBegin() {
        return begin(Tuple.from("c"));
    }

    static byte[] countsEnd() {
        return end(Tuple.from("c"));
    }

    static byte[] countsBegin(String type) {
        return begin(Tuple.from("c", type));
    }

    static byte[] countsEnd(String type) {
        return end(Tuple.from("c", type));
    }

    static byte[] outcome(long at, String nonce) {
        return Tuple.from("o", at, nonce).pack();
    }

    static byte[] outcomesBegin() {
        return begin(Tuple.from("o"));
    }

    static byte[] outcomesBefore(long at) {
        return Tuple.from("o", at).pack();
    }

    /** The counters kept per type. */
    enum Counter {
        SCHEDULED("s"), READY("r"), RUNNING("a"), SUCCEEDED("ok"), FAILED("failed"), CANCELLED("cancelled");

        final String key;

        Counter(String key) {
            this.key = key;
        }

        /** The counter stored under {@code key}, or null for one this release does not know. */
        static Counter of(String key) {
            for (Counter counter : values()) {
                if (counter.key.equals(key)) {
                    return counter;
                }
            }
            return null;
        }
    }

    static byte[] begin(Tuple prefix) {
        return concat(prefix.pack(), new byte[] {0x00});
    }

    static byte[] end(Tuple prefix) {
        return concat(prefix.pack(), END);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] result = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, result, a.length, b.length);
        return result;
    }
}
