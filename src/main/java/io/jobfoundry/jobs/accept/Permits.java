package io.jobfoundry.jobs.accept;

import io.jobfoundry.jobs.records.SlotKeys;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvTransaction;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One concurrency limit's slots ({@code ("l", type, n)} or {@code ("m", type, group, n)}) as one
 * accept transaction sees them. The slots are found with snapshot reads and only the slot taken
 * gets a read conflict, so two accepts conflict only when they take the same slot (which the
 * random choice makes rare) and yet never more than {@code max} slots below {@code max} are held.
 * Slots at or past {@code max} exist only while a lowered limit drains: then the whole range is read
 * with a conflict, so that the count of all held slots, not only the low ones, is exact.
 */
final class Permits {

    /** Limits this small are read in one range read; the slots of a larger one are probed first. */
    static final int SMALL = 32;
    private static final int PROBES = 2;
    static final long NONE = -1;
    private static final long UNKNOWN = -2;

    private final KvTransaction tx;
    private final SlotKeys.LimitSlots slots;
    private final int max;
    /** Slots held by running jobs, once read in full; null until then. */
    private Set<Long> held;
    /** Slots this transaction took. */
    private final Set<Long> taken = new HashSet<>();
    /** The slot {@link #free} found, kept until taken so that asking again reads nothing more. */
    private long candidate = UNKNOWN;

    Permits(KvTransaction tx, SlotKeys.LimitSlots slots, int max) {
        this.tx = tx;
        this.slots = slots;
        this.max = max;
    }

    /** A free slot below {@code max}, or {@link #NONE} if the limit is used up. Takes nothing. */
    long free() {
        if (candidate != UNKNOWN) {
            return candidate;
        }
        if (held == null) {
            if (max <= SMALL || !tx.snapshot().getRange(slots.slot(max), slots.end(), 1).isEmpty()) {
                load();
            } else {
                for (int i = 0; i < PROBES; i++) {
                    long slot = ThreadLocalRandom.current().nextLong(max);
                    if (!taken.contains(slot) && tx.snapshot().get(slots.slot(slot)) == null) {
                        return candidate = slot;
                    }
                }
                load();
            }
        }
        if (held.size() + taken.size() >= max) {
            return candidate = NONE;
        }
        long start = ThreadLocalRandom.current().nextLong(max);
        for (long i = 0; i < max; i++) {
            long slot = (start + i) % max;
            if (!held.contains(slot) && !taken.contains(slot)) {
                return candidate = slot;
            }
        }
        return candidate = NONE; // not reached: fewer are held than there are numbers below max
    }

    /** Takes {@code slot} (from {@link #free}) for the job {@code id}: a read conflict on that key alone. */
    void take(long slot, String id) {
        byte[] key = slots.slot(slot);
        tx.addReadConflictKey(key);
        tx.set(key, SlotKeys.permitValue(id));
        taken.add(slot);
        candidate = UNKNOWN;
    }

    /**
     * Whether the limit is used up, read again with a conflict on every slot: whoever acts on a
     * "full" answer (takes the group out of the ring) then conflicts with any slot given back
     * meanwhile.
     */
    boolean fullForSure() {
        read(true);
        candidate = UNKNOWN;
        return held.size() + taken.size() >= max;
    }

    private void load() {
        read(false);
        if (held.stream().anyMatch(slot -> slot >= max)) {
            read(true); // a lowered limit drains: the count of all must be exact
        }
    }

    private void read(boolean conflict) {
        List<KeyValue> read = (conflict ? tx : tx.snapshot()).getRange(slots.begin(), slots.end(), 0);
        held = new HashSet<>();
        for (KeyValue kv : read) {
            long slot = slots.number(kv.key());
            if (!taken.contains(slot)) {
                held.add(slot);
            }
        }
    }
}
