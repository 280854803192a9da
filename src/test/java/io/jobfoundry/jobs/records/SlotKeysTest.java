package io.jobfoundry.jobs.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.apple.foundationdb.tuple.Tuple;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The limits' keys and values are the bytes earlier releases wrote with fdb-java's {@code Tuple}
 * ({@code Tuple.from("l", type, n)} and the like): a store written before keeps its permits and
 * rate slots, and they are read back as the numbers, groups and times they hold.
 */
class SlotKeysTest {

    private static final List<String> TYPES = List.of("email", "a.b-c_9", "ü型");
    private static final List<String> GROUPS = List.of("", "tenant-7", "x\u0000y", "😀");
    private static final long[] SLOTS = {0, 1, 255, 256, 9_999};

    @Test
    void slotKeysAreTheTupleEncodingTheyAlwaysWere() {
        for (String type : TYPES) {
            for (long slot : SLOTS) {
                assertArrayEquals(Tuple.from("l", type, slot).pack(), SlotKeys.typeSlots(type).slot(slot));
                assertArrayEquals(Tuple.from("q", type, slot).pack(), SlotKeys.typeRateSlots(type).slot(slot));
                assertEquals(slot, SlotKeys.typeSlots(type).number(Tuple.from("l", type, slot).pack()));
                for (String group : GROUPS) {
                    byte[] permit = Tuple.from("m", type, group, slot).pack();
                    byte[] rate = Tuple.from("n", type, group, slot).pack();
                    assertArrayEquals(permit, SlotKeys.groupSlots(type, group).slot(slot));
                    assertArrayEquals(rate, SlotKeys.groupRateSlots(type, group).slot(slot));
                    assertEquals(slot, SlotKeys.groupRateSlots(type, group).number(rate));
                    assertEquals(new SlotKeys.GroupSlot(group, slot), SlotKeys.groupRateSlot(rate));
                }
            }
        }
    }

    @Test
    void rangesHoldTheirOwnSlotsAndNoOthers() {
        SlotKeys.LimitSlots slots = SlotKeys.groupSlots("email", "tenant-7");
        assertArrayEquals(Tuple.from("m", "email", "tenant-7").range().begin, slots.begin());
        assertArrayEquals(Tuple.from("m", "email", "tenant-7").range().end, slots.end());
        assertArrayEquals(Tuple.from("n", "email").range().begin, SlotKeys.groupRateSlotsBegin("email"));
        assertArrayEquals(Tuple.from("n", "email").range().end, SlotKeys.groupRateSlotsEnd("email"));
    }

    @Test
    void valuesAreTheTupleEncodingTheyAlwaysWere() {
        assertArrayEquals(Tuple.from("job-42").pack(), SlotKeys.permitValue("job-42"));
        for (long micros : new long[] {0, 1, 1_795_000_000_000_000L, Long.MAX_VALUE}) {
            assertArrayEquals(Tuple.from(micros).pack(), SlotKeys.rateSlotValue(micros));
            assertEquals(micros, SlotKeys.rateSlotTime(Tuple.from(micros).pack()));
        }
    }
}
