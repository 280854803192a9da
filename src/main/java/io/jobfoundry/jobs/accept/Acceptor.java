package io.jobfoundry.jobs.accept;

import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.JobKeys.ReadyKey;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.records.JobRecord;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvTransaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Chooses which ready jobs an accept takes (docspell's executor): round-robin across the groups of
 * a type, the type's high/low counting scheme within a group, due retries before fresh runs,
 * oldest first. The round-robin cursor and the scheme's position live in this replica's memory,
 * as docspell keeps them; correctness never depends on them, only fairness does. An attempt works
 * on a {@link Round}, whose moves reach that state only once its transaction has committed, so
 * attempts that are retried do not skip anyone's turn.
 *
 * <p>Candidates are found with snapshot reads; only the job actually taken gets a read conflict
 * (on its ready key and its record), so concurrent accepts that take different jobs never
 * conflict. A group found empty is read again with a conflict, so that clearing its marker cannot
 * hide a job added to it concurrently; the caller decides whether to clear
 * ({@link #clearEmptyGroups}): a marker left on an empty group costs later accepts a read or two,
 * clearing it is a write.
 */
final class Acceptor {

    private final int window;
    private final ConcurrentHashMap<String, String> cursors = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<GroupKey, Integer> positions = new ConcurrentHashMap<>();
    /** Each glob's next turn ({@link #nextTurn}); patterns come from clients, hence the bound. */
    private final ConcurrentHashMap<String, AtomicInteger> globTurns = new ConcurrentHashMap<>();
    static final int MAX_GLOB_TURNS = 1024;

    private record GroupKey(String type, String group) {
    }

    Acceptor(int window) {
        this.window = window;
    }

    /** The moves of one transaction attempt, applied by {@link #commit()} after it commits. */
    final class Round {
        private final Map<String, String> cursorMoves = new HashMap<>();
        private final Map<GroupKey, Integer> positionMoves = new HashMap<>();
        /** Groups this attempt found empty, each read with a conflict: their markers may be cleared. */
        private final List<GroupKey> empty = new ArrayList<>();
        /** Groups at their perGroup limit, their slots read with a conflict: their markers go ({@link Limits#fullForSure}). */
        private final Set<GroupKey> full = new java.util.LinkedHashSet<>();

        private String cursor(String type) {
            return cursorMoves.containsKey(type) ? cursorMoves.get(type) : cursors.get(type);
        }

        private int position(GroupKey key) {
            Integer moved = positionMoves.get(key);
            return moved != null ? moved : positions.getOrDefault(key, 0);
        }

        /** Records that {@code job} was served, as the choice that picked it did. */
        private void served(String type, String group, Priority priority, TypeSettings settings) {
            cursorMoves.put(type, group);
            GroupKey key = new GroupKey(type, group);
            int position = position(key);
            if (priority == preferred(position, settings)) {
                positionMoves.put(key, (position + 1) % (settings.highRun() + settings.lowRun()));
            }
        }

        void commit() {
            cursors.putAll(cursorMoves);
            positions.putAll(positionMoves);
        }
    }

    Round round() {
        return new Round();
    }

    /**
     * Where an accept with {@code glob} starts among the types it matches: each such accept one
     * type further, so that a busy type cannot starve the others the way it would if every accept
     * began with the first. The turns are the glob's own: a count shared by every accept would let
     * other accepts in between step past a type for good. Past {@link #MAX_GLOB_TURNS} globs the
     * turns start over, which costs only one round of order.
     */
    int nextTurn(String glob) {
        if (globTurns.size() >= MAX_GLOB_TURNS && !globTurns.containsKey(glob)) {
            globTurns.clear();
        }
        return globTurns.computeIfAbsent(glob, g -> new AtomicInteger()).getAndIncrement();
    }

    /**
     * A round rebuilt from the jobs a committed attempt took, for a retry that replays it: the
     * moves follow from each job's group and priority exactly as the original choice made them.
     */
    Round replayed(List<Job> jobs, java.util.function.Function<String, TypeSettings> settings) {
        Round round = new Round();
        for (Job job : jobs) {
            TypeSettings typeSettings = settings.apply(job.type());
            if (typeSettings != null) {
                round.served(job.type(), job.group(), job.priority(), typeSettings);
            }
        }
        return round;
    }

    private static Priority preferred(int position, TypeSettings settings) {
        return position % (settings.highRun() + settings.lowRun()) < settings.highRun() ? Priority.HIGH : Priority.LOW;
    }

    /**
     * Claims up to {@code need} ready jobs of {@code type}; the caller starts them running. Groups
     * are visited one at a time in ring order after the cursor, so an accept reads a few keys
     * however many groups there are; it stops when it comes back to a group that gave nothing.
     * With {@code limits} (null: the type has none), nothing is claimed once the type's limits are
     * used up, a group without room is passed over (one at its perGroup limit also leaves the
     * ring, {@link #clearEmptyGroups}), and each job claimed takes its permits and rate slots.
     */
    List<JobRecord> take(Round round, KvTransaction tx, String type, TypeSettings settings, int need, long maxAt,
            Limits limits) {
        List<JobRecord> taken = new ArrayList<>(need);
        Set<String> fruitless = new HashSet<>();
        // No group joins or leaves the ring while this runs (empty and full groups leave in
        // clearEmptyGroups, after it), so the group after a position is read once: a type with
        // one group would otherwise read the ring twice for every job it hands out.
        Map<String, String> after = new HashMap<>();
        // Each group's ready keys are read once per take too, with the jobs this take claims taken out.
        Map<String, ReadyWindow> windows = new HashMap<>();
        String position = round.cursor(type);
        while (taken.size() < need) {
            // No group (null) ends the loop, so that answer needs no keeping.
            String group = after.computeIfAbsent(position, from -> nextGroup(tx, type, from));
            // The type's own limits only once there is a group to serve: an idle type reads no slots.
            if (group == null || fruitless.contains(group) || limits != null && limits.typeExhausted()) {
                break;
            }
            Limits.Room room = limits == null ? Limits.Room.ROOM : limits.roomIn(group);
            if (room != Limits.Room.ROOM) {
                // Fairness among the groups with room: this one is passed over, not waited for.
                fruitless.add(group);
                if (room == Limits.Room.FULL && !round.full.contains(new GroupKey(type, group)) && limits.fullForSure(group)) {
                    round.full.add(new GroupKey(type, group));
                }
                position = group;
                continue;
            }
            int wanted = need - taken.size();
            ReadyWindow ready = windows.computeIfAbsent(group, g -> new ReadyWindow(tx, type, g, window, wanted));
            JobRecord job = takeFromGroup(round, tx, ready, type, group, settings, maxAt);
            if (job != null) {
                if (limits != null) {
                    limits.admit(job);
                }
                taken.add(job);
                round.served(type, group, job.priority(), settings);
                fruitless.clear();
            } else {
                fruitless.add(group);
                if (groupIsEmpty(tx, type, group)) {
                    round.empty.add(new GroupKey(type, group));
                }
            }
            position = group;
        }
        return taken;
    }

    /**
     * Claims only the job {@code id}, if it is ready and due by {@code maxAt} and the type's limits
     * have room in its group: the hand-off of a job just added, on a store whose transactions run
     * at once ({@link Accepting#addAndHandOff}). Its keys are the adding transaction's own, so the
     * hand-off conflicts with no other accept over an older job.
     */
    List<JobRecord> takeAdded(Round round, KvTransaction tx, String type, TypeSettings settings, String id, long maxAt,
            Limits limits) {
        JobRecord job = JobRecord.load(tx, type, id);
        if (job == null || job.state() != JobState.PENDING || !job.due() || job.scheduledAt() > maxAt
                || limits != null && (limits.typeExhausted() || limits.roomIn(job.group()) != Limits.Room.ROOM)) {
            return List.of();
        }
        job.unplace(tx);
        if (limits != null) {
            limits.admit(job);
        }
        round.served(type, job.group(), job.priority(), settings);
        return List.of(job);
    }

    /**
     * Clears the markers of the groups {@code round} found full, and of those it found empty unless
     * it found at most {@code keep} of them, which stay in the ring for a later transaction to
     * clear. Answers whether it cleared any, a write.
     */
    boolean clearEmptyGroups(Round round, KvTransaction tx, int keep) {
        // Full groups always leave: with many groups at their limit, each would otherwise cost
        // every accept a read of its slots. The job that gives a slot back brings the group back.
        for (GroupKey full : round.full) {
            tx.clear(JobKeys.group(full.type(), full.group()));
        }
        if (round.empty.size() <= keep) {
            return !round.full.isEmpty();
        }
        for (GroupKey empty : round.empty) {
            tx.clear(JobKeys.group(empty.type(), empty.group()));
        }
        return true;
    }

    /** The group after {@code position} in the ring of groups with ready jobs, or {@code null} if none. */
    private static String nextGroup(KvTransaction tx, String type, String position) {
        if (position != null) {
            List<KeyValue> after = tx.snapshot().getRange(JobKeys.groupsAfter(type, position), JobKeys.groupsEnd(type), 1);
            if (!after.isEmpty()) {
                return JobKeys.groupOf(after.get(0).key());
            }
        }
        List<KeyValue> first = tx.snapshot().getRange(JobKeys.groupsBegin(type), JobKeys.groupsEnd(type), 1);
        return first.isEmpty() ? null : JobKeys.groupOf(first.get(0).key());
    }

    private static JobRecord takeFromGroup(Round round, KvTransaction tx, ReadyWindow ready, String type, String group,
            TypeSettings settings, long maxAt) {
        Priority preferred = preferred(round.position(new GroupKey(type, group)), settings);
        Priority other = preferred == Priority.HIGH ? Priority.LOW : Priority.HIGH;
        JobRecord job = takeFromClass(tx, ready, type, preferred, maxAt);
        // An empty preferred class gives its turn to the other; the turn stays with the preferred.
        return job != null ? job : takeFromClass(tx, ready, type, other, maxAt);
    }

    private static JobRecord takeFromClass(KvTransaction tx, ReadyWindow ready, String type, Priority priority,
            long maxAt) {
        for (boolean retry : new boolean[] {true, false}) {
            List<ReadyKey> candidates = ready.candidates(priority, retry);
            int due = 0;
            while (due < candidates.size() && candidates.get(due).at() <= maxAt) {
                due++;
            }
            if (due == 0) {
                continue;
            }
            int start = due == 1 ? 0 : ThreadLocalRandom.current().nextInt(due);
            for (int i = 0; i < due; i++) {
                ReadyKey candidate = candidates.get((start + i) % due);
                JobRecord job = claim(tx, type, candidate.key(), candidate.id());
                ready.remove(candidate);
                if (job != null) {
                    return job;
                }
            }
        }
        return null;
    }

    /** Takes the job behind a ready key, with read conflicts on exactly that key and its record. */
    private static JobRecord claim(KvTransaction tx, String type, byte[] readyKey, String id) {
        tx.addReadConflictKey(readyKey);
        JobRecord job = JobRecord.load(tx, type, id);
        if (job == null || job.state() != JobState.PENDING || !job.due()) {
            return null;
        }
        job.unplace(tx);
        return job;
    }

    private static boolean groupIsEmpty(KvTransaction tx, String type, String group) {
        return tx.getRange(JobKeys.readyGroupBegin(type, group), JobKeys.readyGroupEnd(type, group), 1).isEmpty();
    }
}
