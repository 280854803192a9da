package io.jobfoundry.jobs.accept;

import io.jobfoundry.jobs.records.SlotKeys;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvTransaction;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One rate limit's {@code count} slots ({@code ("q", type, n)} or {@code ("n", type, group, n)}), each
 * holding when the last start under it was: a slot is free once {@code window} has passed since,
 * so every start takes a slot and no window of that length holds more than {@code count} starts.
 * As with {@link Permits}, slots are found with snapshot reads and the one taken gets a read
 * conflict; times are this replica's clock ({@code docs/architecture.md} for skew).
 */
final class RateSlots {

    private static final int PROBES = 2;
    private static final long UNKNOWN = -2;

    private final KvTransaction tx;
    private final SlotKeys.LimitSlots slots;
    private final int count;
    private final long window;
    private final long now;
    /** The time of every slot in use, once read in full; null until then. */
    private Map<Long, Long> times;
    private final Set<Long> taken = new HashSet<>();
    private long candidate = UNKNOWN;
    /** When the first busy slot frees (microseconds), as far as this transaction looked; MAX_VALUE if not known. */
    private long nextFree = Long.MAX_VALUE;

    RateSlots(KvTransaction tx, SlotKeys.LimitSlots slots, int count, long windowMicros, long now) {
        this.tx = tx;
        this.slots = slots;
        this.count = count;
        this.window = windowMicros;
        this.now = now;
    }

    /** A free slot, or {@link Permits#NONE} if {@code count} starts fall within the last window. Takes nothing. */
    long free() {
        if (candidate != UNKNOWN) {
            return candidate;
        }
        if (times == null) {
            if (count > Permits.SMALL) {
                for (int i = 0; i < PROBES; i++) {
                    long slot = ThreadLocalRandom.current().nextLong(count);
                    if (!taken.contains(slot) && isFree(tx.snapshot().get(slots.slot(slot)))) {
                        return candidate = slot;
                    }
                }
            }
            times = new HashMap<>();
            for (KeyValue kv : tx.snapshot().getRange(slots.begin(), slots.end(), 0)) {
                times.put(slots.number(kv.key()), SlotKeys.rateSlotTime(kv.value()));
            }
        }
        long start = ThreadLocalRandom.current().nextLong(count);
        long earliest = Long.MAX_VALUE;
        for (long i = 0; i < count; i++) {
            long slot = (start + i) % count;
            if (taken.contains(slot)) {
                earliest = Math.min(earliest, now + window);
                continue;
            }
            Long last = times.get(slot);
            if (last == null || last + window <= now) {
                return candidate = slot;
            }
            earliest = Math.min(earliest, last + window);
        }
        nextFree = earliest;
        return candidate = Permits.NONE;
    }

    private boolean isFree(byte[] value) {
        return value == null || SlotKeys.rateSlotTime(value) + window <= now;
    }

    /** Records a start now under {@code slot} (from {@link #free}), with a read conflict on that key alone. */
    void take(long slot) {
        byte[] key = slots.slot(slot);
        tx.addReadConflictKey(key);
        tx.set(key, SlotKeys.rateSlotValue(now));
        taken.add(slot);
        candidate = UNKNOWN;
    }

    /** When the earliest busy slot frees, if {@link #free} found none; else MAX_VALUE. */
    long nextFree() {
        return nextFree;
    }
}
