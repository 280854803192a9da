package io.jobfoundry.jobs.accept;

import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.RateLimit;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.SlotKeys;
import io.jobfoundry.jobs.records.JobRecord;
import io.jobfoundry.jobs.records.HeldSlots;
import io.jobfoundry.kv.KvTransaction;
import java.util.HashMap;
import java.util.Map;

/**
 * A type's concurrency and rate limits as one accept transaction applies them: whether any job of
 * the type may start ({@link #typeExhausted}), whether one of a group may ({@link #roomIn}), and the
 * permits and rate slots a job takes as it starts ({@link #admit}). Built only for a type that has
 * limits ({@link #of}): a type without reads and writes nothing here.
 */
final class Limits {

    /** Whether a group may start a job now. */
    enum Room { ROOM, FULL, RATED }

    private final KvTransaction tx;
    private final String type;
    private final Concurrency concurrency;
    private final RateLimit rate;
    private final long now;
    private final Permits typePermits;
    private final RateSlots typeRate;
    private final Map<String, Permits> groupPermits = new HashMap<>();
    private final Map<String, RateSlots> groupRates = new HashMap<>();
    /** The earliest time (microseconds) a rate slot that held a start back frees; MAX_VALUE if none did. */
    private long nextFree = Long.MAX_VALUE;

    private Limits(KvTransaction tx, String type, TypeSettings settings, long now) {
        this.tx = tx;
        this.type = type;
        this.concurrency = settings.concurrency();
        this.rate = settings.rateLimit();
        this.now = now;
        this.typePermits = concurrency.max() == null ? null
                : new Permits(tx, SlotKeys.typeSlots(type), concurrency.max());
        this.typeRate = rate == null || rate.perGroup() ? null
                : new RateSlots(tx, SlotKeys.typeRateSlots(type), rate.count(), windowMicros(), now);
    }

    /** The limits of {@code type} for this transaction, or null if it has none. */
    static Limits of(KvTransaction tx, String type, TypeSettings settings, long now) {
        return settings.limited() ? new Limits(tx, type, settings, now) : null;
    }

    private long windowMicros() {
        return rate.window().toNanos() / 1_000;
    }

    /** Whether no job of the type may start now, whatever its group. */
    boolean typeExhausted() {
        if (typePermits != null && typePermits.free() == Permits.NONE) {
            return true;
        }
        if (typeRate != null && typeRate.free() == Permits.NONE) {
            nextFree = Math.min(nextFree, typeRate.nextFree());
            return true;
        }
        return false;
    }

    /** Whether a job of {@code group} may start now (the type's own limits checked by {@link #typeExhausted}). */
    Room roomIn(String group) {
        Permits permits = groupPermits(group);
        if (permits != null && permits.free() == Permits.NONE) {
            return Room.FULL;
        }
        RateSlots slots = groupRate(group);
        if (slots != null && slots.free() == Permits.NONE) {
            nextFree = Math.min(nextFree, slots.nextFree());
            return Room.RATED;
        }
        return Room.ROOM;
    }

    /**
     * Whether {@code group}, found {@link Room#FULL}, is full by a read with conflicts on its slots:
     * then its ring marker may go, for a job that stops gives its slot back and marks the group again
     * ({@link Slots}), which this read makes a conflict if it happens meanwhile.
     */
    boolean fullForSure(String group) {
        return groupPermits(group).fullForSure();
    }

    /**
     * Takes for {@code job}, which the caller starts running in this transaction, a slot of each
     * limit (checked free by {@link #typeExhausted} and {@link #roomIn}), and records which
     * permits it holds.
     */
    void admit(JobRecord job) {
        Long typeSlot = null;
        if (typePermits != null) {
            typeSlot = typePermits.free();
            typePermits.take(typeSlot, job.id());
        }
        Long groupSlot = null;
        Permits permits = groupPermits(job.group());
        if (permits != null) {
            groupSlot = permits.free();
            permits.take(groupSlot, job.id());
        }
        RateSlots slots = typeRate != null ? typeRate : groupRate(job.group());
        if (slots != null) {
            slots.take(slots.free());
        }
        if (typeSlot != null || groupSlot != null) {
            job.holdSlots(new HeldSlots(typeSlot, groupSlot == null ? null : job.group(), groupSlot));
        }
    }

    /** When a rate slot that held a start back frees (microseconds); MAX_VALUE if none did. */
    long nextFree() {
        return nextFree;
    }

    private Permits groupPermits(String group) {
        if (concurrency.perGroup() == null) {
            return null;
        }
        return groupPermits.computeIfAbsent(group,
                g -> new Permits(tx, SlotKeys.groupSlots(type, g), concurrency.perGroup()));
    }

    private RateSlots groupRate(String group) {
        if (rate == null || !rate.perGroup()) {
            return null;
        }
        return groupRates.computeIfAbsent(group,
                g -> new RateSlots(tx, SlotKeys.groupRateSlots(type, g), rate.count(), windowMicros(), now));
    }
}
