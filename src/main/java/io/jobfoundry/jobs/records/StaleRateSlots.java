package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.RateLimit;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvTransaction;
import java.util.List;

/**
 * Clears the per-group rate slots ({@code ("n", type, group, n)}, {@link SlotKeys}) that hold
 * nothing back any more: a start writes its group's slot, and nothing else removed it, so a type
 * whose groups are tenants or customers kept up to {@code count} keys for every group that ever
 * started a job. A slot holds nothing back once its window has passed, once it is at or past a
 * lowered {@code count}, or once the type has no {@code perGroup} rate limit; an absent slot is
 * free, exactly as such a slot is, so clearing one changes no accept's answer.
 *
 * <p>The scan is a snapshot read, and only the slots cleared are read with a conflict: a start
 * that takes one of them meanwhile makes this transaction retry (and the slot then holds that
 * start), and a start that read it free before the clear conflicts with the clear and takes it
 * again. The type's settings are read with a conflict too, so that a limit changed meanwhile (a
 * longer window) is never judged by the old one.
 */
public final class StaleRateSlots {

    /** How many slots a sweep cleared, and the last key it read, or null when the type's slots are done. */
    public record Swept(int cleared, byte[] after) {
    }

    private StaleRateSlots() {
    }

    /**
     * Clears the stale per-group rate slots of {@code type} after the key {@code after} (null: from
     * the start), reading at most {@code limit} slots; {@code now} in microseconds, as slots hold it.
     */
    public static Swept clear(KvTransaction tx, String type, byte[] after, int limit, long now) {
        TypeSettings settings = TypeRegistry.find(tx, type);
        RateLimit rate = settings == null ? null : settings.rateLimit();
        boolean perGroup = rate != null && rate.perGroup();
        long windowMicros = perGroup ? rate.window().toNanos() / 1_000 : 0;
        byte[] from = after == null ? SlotKeys.groupRateSlotsBegin(type) : JobKeys.after(after);
        List<KeyValue> slots = tx.snapshot().getRange(from, SlotKeys.groupRateSlotsEnd(type), limit);
        int cleared = 0;
        for (KeyValue slot : slots) {
            boolean stale = !perGroup || SlotKeys.groupRateSlot(slot.key()).slot() >= rate.count()
                    || SlotKeys.rateSlotTime(slot.value()) + windowMicros <= now;
            if (stale) {
                tx.addReadConflictKey(slot.key());
                tx.clear(slot.key());
                cleared++;
            }
        }
        return new Swept(cleared, slots.size() < limit ? null : slots.get(slots.size() - 1).key());
    }
}
