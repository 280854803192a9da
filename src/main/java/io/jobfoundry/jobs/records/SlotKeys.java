package io.jobfoundry.jobs.records;

import io.jobfoundry.kv.TupleReader;
import io.jobfoundry.kv.TupleWriter;
import java.util.List;

/**
 * The keys of concurrency and rate limits: permit slots {@code ("l", type, n)} and
 * {@code ("m", type, group, n)}, rate slots {@code ("q", type, n)} and {@code ("n", type, group, n)}.
 * What each holds, and why, is in the data model, {@link JobKeys}.
 */
public final class SlotKeys {

    private SlotKeys() {
    }

    /** One limit's slots: the packed tuple every key of them begins with. */
    public static final class LimitSlots {

        private final byte[] prefix;

        private LimitSlots(byte[] prefix) {
            this.prefix = prefix;
        }

        /** The slot numbered {@code slot}. */
        public byte[] slot(long slot) {
            return TupleWriter.after(prefix).add(slot).pack();
        }

        public byte[] begin() {
            return TupleWriter.after(prefix).rangeBegin();
        }

        public byte[] end() {
            return TupleWriter.after(prefix).rangeEnd();
        }

        /** The number of a slot key of these slots. */
        public long number(byte[] key) {
            return TupleReader.at(key, prefix.length).integer();
        }
    }

    public static LimitSlots typeSlots(String type) {
        return new LimitSlots(TupleWriter.of("l").add(type).pack());
    }

    public static LimitSlots groupSlots(String type, String group) {
        return new LimitSlots(TupleWriter.of("m").add(type).add(group).pack());
    }

    public static LimitSlots typeRateSlots(String type) {
        return new LimitSlots(TupleWriter.of("q").add(type).pack());
    }

    public static LimitSlots groupRateSlots(String type, String group) {
        return new LimitSlots(TupleWriter.of("n").add(type).add(group).pack());
    }

    /**
     * Where every limit slot of the type lies, its groups' too, as {@code [begin, end)} pairs:
     * what deleting a type no job uses clears with its other keys ({@link JobKeys#typeFamilies}).
     */
    static List<byte[][]> typeFamilies(String type) {
        return JobKeys.typeRanges(type, "l", "m", "q", "n");
    }

    /** Where the per-group rate slots of {@code type}, every group's, begin and end. */
    public static byte[] groupRateSlotsBegin(String type) {
        return TupleWriter.of("n").add(type).rangeBegin();
    }

    public static byte[] groupRateSlotsEnd(String type) {
        return TupleWriter.of("n").add(type).rangeEnd();
    }

    /** The group and number of a per-group rate slot's key ({@code ("n", type, group, n)}). */
    public record GroupSlot(String group, long slot) {
    }

    public static GroupSlot groupRateSlot(byte[] key) {
        TupleReader reader = TupleReader.of(key).skip(2);
        return new GroupSlot(reader.string(), reader.integer());
    }

    /** A permit slot's value: the id of the job that holds it. */
    public static byte[] permitValue(String id) {
        return TupleWriter.withCapacity(id.length() + 3).add(id).pack();
    }

    /** A rate slot's value: the time of the last start under it, in microseconds. */
    public static byte[] rateSlotValue(long micros) {
        return TupleWriter.withCapacity(9).add(micros).pack();
    }

    public static long rateSlotTime(byte[] value) {
        return TupleReader.of(value).integer();
    }
}
