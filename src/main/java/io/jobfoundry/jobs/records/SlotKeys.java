package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.TupleWriter;

/**
 * The keys of concurrency and rate limits: permit slots {@code ("l", type, n)} and
 * {@code ("m", type, group, n)}, rate slots {@code ("q", type, n)} and {@code ("n", type, group, n)}.
 * What each holds, and why, is in the data model, {@link JobKeys}.
 */
public final class SlotKeys {

    private SlotKeys() {
    }

    public static byte[] typeSlot(String type, long slot) {
        return Tuple.from("l", type, slot).pack();
    }

    public static Tuple typeSlots(String type) {
        return Tuple.from("l", type);
    }

    public static byte[] groupSlot(String type, String group, long slot) {
        return Tuple.from("m", type, group, slot).pack();
    }

    public static Tuple groupSlots(String type, String group) {
        return Tuple.from("m", type, group);
    }

    public static Tuple typeRateSlots(String type) {
        return Tuple.from("q", type);
    }

    public static Tuple groupRateSlots(String type, String group) {
        return Tuple.from("n", type, group);
    }

    /** Where the per-group rate slots of {@code type}, every group's, begin and end. */
    public static byte[] groupRateSlotsBegin(String type) {
        return TupleWriter.of("n").add(type).rangeBegin();
    }

    public static byte[] groupRateSlotsEnd(String type) {
        return TupleWriter.of("n").add(type).rangeEnd();
    }

    /** A rate slot's value: the time of the last start under it, in microseconds. */
    public static byte[] rateSlotValue(long micros) {
        return Tuple.from(micros).pack();
    }

    public static long rateSlotTime(byte[] value) {
        return Tuple.fromBytes(value).getLong(0);
    }

    /** The slot under {@code slots} numbered {@code slot}, any of the four kinds above. */
    public static byte[] slot(Tuple slots, long slot) {
        return slots.add(slot).pack();
    }

    /** The number of a slot key under {@code slots} (its last element). */
    public static long slotNumber(byte[] key) {
        Tuple tuple = Tuple.fromBytes(key);
        return tuple.getLong(tuple.size() - 1);
    }
}
