package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.kv.TupleReader;
import io.jobfoundry.kv.TupleWriter;
import io.jobfoundry.kv.VersionstampKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
 *                                                 (kept when a type is deleted: accepts on any replica watch it)
 * ("d")                                        → counter bumped when a job is scheduled for later (wakes due timers)
 * ("c", type, counter)                         → counter (atomic ADD) of jobs per state and result
 * ("k", type, group, counter)                  → counter (atomic ADD) of a group's scheduled, ready and running jobs
 * ("p", type, scheduledAt, id)                 → ""   pending, due or not: the oldest due one is the type's latency
 * ("f", type, result, finishedAt, id)          → ""   finished, by result and finish time: what retention removes
 * ("o", at, nonce)                             → the outcome of an accept, so a retried accept after
 *                                                 commit_unknown_result returns the same jobs
 * ("e", parentType, parentId, childType, childId) → parent's origin   the child waits for that incarnation of the parent
 * ("z", parentType, parentId)                  → (outcome, origin, at)   the parent finished or went: its edges need resolving
 * ("y")                                        → counter bumped when a "z" marker is written (wakes dependency resolvers)
 * ("l", type, slot)                            → id   a concurrency.max permit held by a running job
 * ("m", type, group, slot)                     → id   a concurrency.perGroup permit held by a running job
 * ("q", type, slot)                            → time of the last start under a per-type rateLimit slot
 * ("n", type, group, slot)                     → time of the last start under a perGroup rateLimit slot
 * </pre>
 *
 * <p>Dependencies ({@link Dependencies}; their keys are built by {@link DependencyKeys}): a pending
 * job waiting for others is <em>parked</em>: in
 * none of {@code "s"}, {@code "r"}, {@code "p"} (it is not due), counted as scheduled. An edge
 * exists exactly while its child is pending and lists the parent in its {@code waitingFor}; it
 * holds the {@code origin} (creation nonce) of the parent it was written against, so a parent
 * removed and made again under the same id is not mistaken for the one the child waited for. A
 * transaction that finishes or removes a job with edges writes its marker ({@code outcome}:
 * {@code succeeded}, {@code failed}, {@code cancelled}, or {@code removed} for a removed job that
 * had not succeeded; {@code at}: the time of that change, so that a marker rewritten while a
 * resolver works through the edges is told apart from the one it started with); the resolver
 * works through the parent's edges a bounded page per transaction and clears the marker with the
 * last page.
 *
 * <p>Limits are permits, not counters ({@code docs/architecture.md}, "Concurrency and rate limits";
 * their keys are built by {@link SlotKeys}).
 * A limit of n is n slot numbers; a running job holds one slot of each concurrency limit of its type
 * (the record keeps which, {@link HeldSlots}) and gives it back when it stops running. An
 * accept takes a free slot with a read conflict on that one key, so two accepts conflict only if
 * they take the same slot, and no single key serializes a limited type's accepts. A rate slot holds
 * the time (microseconds, the accepting replica's clock) of the last start under it and is free once
 * {@code seconds} have passed since. Slots at or past a lowered limit still count until they are
 * given back. A type without limits has none of these keys, and its accepts read none.
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
public final class JobKeys {

    private JobKeys() {
    }

    public static byte[] type(String type) {
        return TupleWriter.of("t").add(type).pack();
    }

    public static byte[] typesBegin() {
        return TupleWriter.of("t").rangeBegin();
    }

    public static byte[] typesEnd() {
        return TupleWriter.of("t").rangeEnd();
    }

    /**
     * Where the keys of the type's own families lie, as {@code [begin, end)} pairs: indexes,
     * group marks and counts, activity, counters. What deleting a type no job uses clears
     * ({@link TypeRegistry#remove}), with the single keys {@link #type} and {@link #latestActivity}.
     * Not the jobs' ({@code "j"}, empty then) nor the dependency edges', which name jobs and
     * resolve on their own.
     */
    static List<byte[][]> typeFamilies(String type) {
        return typeRanges(type, "s", "r", "g", "a", "c", "k", "p", "f");
    }

    /** The ranges of the keys {@code (family, type, ...)}, one per family. */
    static List<byte[][]> typeRanges(String type, String... families) {
        List<byte[][]> ranges = new ArrayList<>();
        for (String family : families) {
            TupleWriter prefix = TupleWriter.of(family).add(type);
            ranges.add(new byte[][] {prefix.rangeBegin(), prefix.rangeEnd()});
        }
        return ranges;
    }

    public static byte[] job(String type, String id) {
        return TupleWriter.of("j").add(type).add(id).pack();
    }

    public static byte[] jobsBegin(String type) {
        return TupleWriter.of("j").add(type).rangeBegin();
    }

    public static byte[] jobsEnd(String type) {
        return TupleWriter.of("j").add(type).rangeEnd();
    }

    /** The first job key after {@code id}: where a listing continues. */
    public static byte[] jobsAfter(String type, String id) {
        return concat(job(type, id), new byte[] {0x00});
    }

    public static byte[] scheduled(String type, long at, String id) {
        return TupleWriter.of("s").add(type).add(at).add(id).pack();
    }

    public static byte[] scheduledBegin(String type) {
        return TupleWriter.of("s").add(type).rangeBegin();
    }

    /** The end of the scheduled jobs due at or before {@code at}. */
    public static byte[] scheduledThrough(String type, long at) {
        return TupleWriter.of("s").add(type).add(at + 1).pack();
    }

    public static byte[] scheduledEnd(String type) {
        return TupleWriter.of("s").add(type).rangeEnd();
    }

    public static byte[] ready(String type, String group, Priority priority, boolean retry, long at, String id) {
        return TupleWriter.of("r").add(type).add(group).add(priority.rank()).add(kind(retry)).add(at).add(id).pack();
    }

    /** The ready keys of one class of a group: by priority, and retries or fresh runs. */
    public static TupleWriter readyClass(String type, String group, Priority priority, boolean retry) {
        return TupleWriter.of("r").add(type).add(group).add(priority.rank()).add(kind(retry));
    }

    /** Where a class sorts among a group's ready keys: by priority, then retries before fresh runs. */
    public static int readyClassOrder(Priority priority, boolean retry) {
        return classOrder(priority.rank(), kind(retry));
    }

    private static int kind(boolean retry) {
        return retry ? 0 : 1;
    }

    private static int classOrder(long priorityRank, long kind) {
        return (int) (priorityRank * 2 + kind);
    }

    public static byte[] readyGroupBegin(String type, String group) {
        return TupleWriter.of("r").add(type).add(group).rangeBegin();
    }

    public static byte[] readyGroupEnd(String type, String group) {
        return TupleWriter.of("r").add(type).add(group).rangeEnd();
    }

    public static byte[] group(String type, String group) {
        return TupleWriter.of("g").add(type).add(group).pack();
    }

    public static byte[] groupsBegin(String type) {
        return TupleWriter.of("g").add(type).rangeBegin();
    }

    public static byte[] groupsAfter(String type, String group) {
        return concat(group(type, group), new byte[] {0x00});
    }

    public static byte[] groupsEnd(String type) {
        return TupleWriter.of("g").add(type).rangeEnd();
    }

    public static VersionstampKeys.Template activityTemplate(String type, int userVersion) {
        return TupleWriter.of("a").add(type).addIncompleteVersionstamp(userVersion).template();
    }

    public static byte[] activity(String type, Versionstamp stamp) {
        return TupleWriter.of("a").add(type).add(stamp).pack();
    }

    public static byte[] activityBegin(String type) {
        return TupleWriter.of("a").add(type).rangeBegin();
    }

    public static byte[] activityEnd(String type) {
        return TupleWriter.of("a").add(type).rangeEnd();
    }

    /** The end of the activity keys at or before {@code stamp}. */
    public static byte[] activityThrough(String type, Versionstamp stamp) {
        return concat(activity(type, stamp), new byte[] {0x00});
    }

    public static byte[] latestActivity(String type) {
        return TupleWriter.of("v").add(type).pack();
    }

    public static byte[] readyWatch(String type) {
        return TupleWriter.of("w").add(type).pack();
    }

    public static byte[] anyReadyWatch() {
        return TupleWriter.of("w").pack();
    }

    public static byte[] scheduledWatch() {
        return TupleWriter.of("d").pack();
    }

    public static byte[] count(String type, Counter counter) {
        return TupleWriter.of("c").add(type).add(counter.key).pack();
    }

    public static byte[] countsBegin() {
        return TupleWriter.of("c").rangeBegin();
    }

    public static byte[] countsEnd() {
        return TupleWriter.of("c").rangeEnd();
    }

    public static byte[] countsBegin(String type) {
        return TupleWriter.of("c").add(type).rangeBegin();
    }

    public static byte[] countsEnd(String type) {
        return TupleWriter.of("c").add(type).rangeEnd();
    }

    public static byte[] groupCount(String type, String group, Counter counter) {
        return TupleWriter.of("k").add(type).add(group).add(counter.key).pack();
    }

    public static byte[] groupCountsBegin(String type) {
        return TupleWriter.of("k").add(type).rangeBegin();
    }

    /** The first group counter after those of {@code group}: where a listing of groups continues. */
    public static byte[] groupCountsAfter(String type, String group) {
        return TupleWriter.of("k").add(type).add(group).rangeEnd();
    }

    public static byte[] groupCountsEnd(String type) {
        return TupleWriter.of("k").add(type).rangeEnd();
    }

    public static byte[] pending(String type, long at, String id) {
        return TupleWriter.of("p").add(type).add(at).add(id).pack();
    }

    public static byte[] pendingBegin(String type) {
        return TupleWriter.of("p").add(type).rangeBegin();
    }

    public static byte[] pendingEnd(String type) {
        return TupleWriter.of("p").add(type).rangeEnd();
    }

    public static byte[] finished(String type, JobResult result, long at, String id) {
        return TupleWriter.of("f").add(type).add(Counter.of(result).key).add(at).add(id).pack();
    }

    public static byte[] finishedBegin(String type, JobResult result) {
        return TupleWriter.of("f").add(type).add(Counter.of(result).key).rangeBegin();
    }

    public static byte[] finishedEnd(String type, JobResult result) {
        return TupleWriter.of("f").add(type).add(Counter.of(result).key).rangeEnd();
    }

    /** The end of the jobs that finished with {@code result} before {@code at}. */
    public static byte[] finishedBefore(String type, JobResult result, long at) {
        return TupleWriter.of("f").add(type).add(Counter.of(result).key).add(at).pack();
    }

    public static byte[] outcome(long at, String nonce) {
        return TupleWriter.of("o").add(at).add(nonce).pack();
    }

    public static byte[] outcomesBegin() {
        return TupleWriter.of("o").rangeBegin();
    }

    public static byte[] outcomesEnd() {
        return TupleWriter.of("o").rangeEnd();
    }

    public static byte[] outcomesBefore(long at) {
        return TupleWriter.of("o").add(at).pack();
    }

    /** The first key after {@code key}: where a page (of a parent's edges, of a sweep's keys) continues. */
    public static byte[] after(byte[] key) {
        return concat(key, new byte[] {0x00});
    }

    // ---- the other direction: what a key read back holds ------------------------------------------

    /** The type a {@link #type} key registers. */
    public static String typeOfRegistration(byte[] key) {
        return TupleReader.of(key).skip(1).string();
    }

    /** The id of the job whose {@link #job} key this is. */
    public static String idOfJob(byte[] key) {
        return TupleReader.of(key).skip(2).string();
    }

    /** A {@link #scheduled} key: when the job is due, and which job. */
    public record ScheduledKey(long at, String id) {
    }

    public static ScheduledKey scheduledKey(byte[] key) {
        TupleReader tuple = TupleReader.of(key).skip(2);
        return new ScheduledKey(tuple.integer(), tuple.string());
    }

    /** A {@link #ready} key: its class's place in the group ({@link #readyClassOrder}), due time and job. */
    public record ReadyKey(byte[] key, int classOrder, long at, String id) {
    }

    public static ReadyKey readyKey(byte[] key) {
        TupleReader tuple = TupleReader.of(key).skip(3);
        return new ReadyKey(key, classOrder(tuple.integer(), tuple.integer()), tuple.integer(), tuple.string());
    }

    /** The group a {@link #group} key marks. */
    public static String groupOf(byte[] key) {
        return TupleReader.of(key).skip(2).string();
    }

    /** A {@link #finished} key: when the job finished, and which job. */
    public record FinishedKey(long at, String id) {
    }

    public static FinishedKey finishedKey(byte[] key) {
        TupleReader tuple = TupleReader.of(key).skip(3);
        return new FinishedKey(tuple.integer(), tuple.string());
    }

    /** A {@link #pending} key's due time. */
    public static long dueOfPending(byte[] key) {
        return TupleReader.of(key).skip(2).integer();
    }

    /** A {@link #groupCount} key: the group and the counter (null for one this release does not know). */
    public record GroupCountKey(String group, Counter counter) {
    }

    public static GroupCountKey groupCountKey(byte[] key) {
        TupleReader tuple = TupleReader.of(key).skip(2);
        return new GroupCountKey(tuple.string(), Counter.of(tuple.string()));
    }

    /** The value of an activity key: the id of the job whose activity it is. */
    static byte[] activityValue(String id) {
        return TupleWriter.of(id).pack();
    }

    /** An {@link #activity} key and its value: the activity's versionstamp, and the job's id. */
    public record ActivityEntry(Versionstamp stamp, String id) {
    }

    public static ActivityEntry activityEntry(byte[] key, byte[] value) {
        return new ActivityEntry(TupleReader.of(key).skip(2).versionstamp(), TupleReader.of(value).string());
    }

    /** A {@link #count} key: the type and the counter (null for one this release does not know). */
    record CountKey(String type, Counter counter) {
    }

    static CountKey countKey(byte[] key) {
        TupleReader tuple = TupleReader.of(key).skip(1);
        return new CountKey(tuple.string(), Counter.of(tuple.string()));
    }

    /** The counters kept per type. */
    public enum Counter {
        SCHEDULED("s"), READY("r"), RUNNING("a"), SUCCEEDED("ok"), FAILED("failed"), CANCELLED("cancelled");

        final String key;

        Counter(String key) {
            this.key = key;
        }

        /** The counter of finished jobs with {@code result}. */
        static Counter of(JobResult result) {
            return switch (result) {
                case SUCCEEDED -> SUCCEEDED;
                case FAILED -> FAILED;
                case CANCELLED -> CANCELLED;
            };
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

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] result = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, result, a.length, b.length);
        return result;
    }
}
