package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvTransaction;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The concurrency permits ({@link HeldSlots}) of the jobs already running when a type's limits
 * change. Taking them is the accept's business ({@code accept.Limits}), giving them back the
 * record's ({@link JobRecord#stopRunning}).
 */
public final class Slots {

    private Slots() {
    }

    /**
     * A change of a type's settings from {@code before} to {@code after}, in the transaction that
     * writes them. Jobs already running are handed the permits of any limit that is new to them,
     * numbered past those taken (slots at or past the limit count until given back, so a limit set
     * while more run holds new starts back until enough have stopped). Groups an accept took out
     * of the ring as full go back in when their limit is raised or lifted. Accepts blocked on the
     * type are woken, as the change may make room. Answers the number of running jobs given
     * permits. Safe to run again: a job that holds a permit is not given another.
     */
    public static int settingsChanged(KvTransaction tx, String type, TypeSettings before, TypeSettings after) {
        Concurrency was = before.concurrency();
        Concurrency now = after.concurrency();
        if (was.equals(now) && Objects.equals(before.rateLimit(), after.rateLimit())) {
            return 0;
        }
        int adopted = 0;
        if (now.limited() && !now.equals(was)) {
            adopted = adoptRunning(tx, type, now.max() != null, now.perGroup() != null);
        }
        if (was.perGroup() != null && (now.perGroup() == null || now.perGroup() > was.perGroup())) {
            remarkGroupsWithReadyJobs(tx, type);
        }
        JobRecord.announceReady(tx, type);
        return adopted;
    }

    /**
     * Every running job of the type, found in the activity index, gets the permits it lacks. One
     * read per running job: the cost of setting a limit, paid once in the settings' transaction.
     */
    private static int adoptRunning(KvTransaction tx, String type, boolean typeLimit, boolean groupLimit) {
        Set<Long> typeTaken = null;
        Map<String, Set<Long>> groupTaken = new HashMap<>();
        int adopted = 0;
        for (KeyValue kv : tx.getRange(JobKeys.activityBegin(type), JobKeys.activityEnd(type), 0)) {
            JobRecord r = JobRecord.load(tx, type, JobKeys.activityEntry(kv.key(), kv.value()).id());
            if (r == null || r.state() != JobState.RUNNING) {
                continue;
            }
            HeldSlots held = r.slots == null ? new HeldSlots(null, null, null) : r.slots;
            Long typeSlot = held.typeSlot();
            String group = held.group();
            Long groupSlot = held.groupSlot();
            if (typeLimit && typeSlot == null) {
                if (typeTaken == null) {
                    typeTaken = taken(tx, SlotKeys.typeSlots(type));
                }
                typeSlot = lowestFree(typeTaken);
                tx.set(SlotKeys.typeSlots(type).slot(typeSlot), SlotKeys.permitValue(r.id()));
            }
            if (groupLimit && groupSlot == null) {
                group = r.group();
                String g = group;
                Set<Long> taken = groupTaken.computeIfAbsent(g, k -> taken(tx, SlotKeys.groupSlots(type, g)));
                groupSlot = lowestFree(taken);
                tx.set(SlotKeys.groupSlots(type, group).slot(groupSlot), SlotKeys.permitValue(r.id()));
            }
            HeldSlots now = new HeldSlots(typeSlot, group, groupSlot);
            if (!now.equals(held)) {
                r.slots = now;
                r.store(tx);
                adopted++;
            }
        }
        return adopted;
    }

    private static Set<Long> taken(KvTransaction tx, SlotKeys.LimitSlots slots) {
        Set<Long> taken = new HashSet<>();
        for (KeyValue kv : tx.getRange(slots.begin(), slots.end(), 0)) {
            taken.add(slots.number(kv.key()));
        }
        return taken;
    }

    private static long lowestFree(Set<Long> taken) {
        long slot = 0;
        while (taken.contains(slot)) {
            slot++;
        }
        taken.add(slot);
        return slot;
    }

    /**
     * Marks every group with ready jobs (its ready counter above zero) as in the ring: one range
     * read of the type's group counters, a blind set per such group.
     */
    private static void remarkGroupsWithReadyJobs(KvTransaction tx, String type) {
        List<KeyValue> counters = tx.snapshot().getRange(JobKeys.groupCountsBegin(type), JobKeys.groupCountsEnd(type), 0);
        for (KeyValue kv : counters) {
            JobKeys.GroupCountKey key = JobKeys.groupCountKey(kv.key());
            if (key.counter() == JobKeys.Counter.READY
                    && ByteBuffer.wrap(kv.value()).order(ByteOrder.LITTLE_ENDIAN).getLong() > 0) {
                tx.set(JobKeys.group(type, key.group()), new byte[0]);
            }
        }
    }
}
