package io.jobfoundry.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModifierRepeatTest {

    // Bedrock's example: due at 1:00pm, started at 1:15pm, took 30 minutes.
    private static final Instant SCHEDULED = Instant.parse("2026-11-21T13:00:00Z");
    private static final Instant STARTED = Instant.parse("2026-11-21T13:15:00Z");
    private static final Instant FINISHED = Instant.parse("2026-11-21T13:45:00Z");

    @Test
    void countsFromTheNamedBase() {
        assertEquals(Instant.parse("2026-11-21T14:00:00Z"), next("SCHEDULED, +1 HOUR"));
        assertEquals(Instant.parse("2026-11-21T14:15:00Z"), next("STARTED, +1 HOUR"));
        assertEquals(Instant.parse("2026-11-21T14:45:00Z"), next("FINISHED, +1 HOUR"));
        assertEquals(Instant.parse("2026-11-22T13:45:00Z"), next("DAILY"));
    }

    @Test
    void bedrocksDocumentedSchedules() {
        assertEquals(Instant.parse("2026-11-22T04:00:00Z"), next("FINISHED, +1 DAY, START OF DAY, +4 HOURS"));
        // 2026-11-21 is a Saturday.
        assertEquals(Instant.parse("2026-11-23T06:00:00Z"), next("FINISHED, +1 DAY, WEEKDAY 1, START OF DAY, +6 HOURS"));
    }

    /** A series that does not always move forward would run its job back to back for good. */
    @Test
    void aRepeatThatDoesNotAlwaysMoveForwardIsRefusedWithWhereItStalls() {
        for (String stalls : List.of("SCHEDULED, -1 SECOND", "SCHEDULED, +0 SECONDS", "FINISHED, -1 HOUR",
                "SCHEDULED, START OF DAY", "FINISHED, START OF DAY, +12 HOURS", "FINISHED, START OF MONTH, +14 DAYS",
                "FINISHED, WEEKDAY 1, START OF DAY, +6 HOURS", "STARTED, +1 SECOND, START OF DAY",
                // Each stands still at a time it makes up itself: the last day of a month at 20:00,
                // the 31st at 18:00, a year's last day at 23:00 (in a leap year and not).
                "SCHEDULED, START OF MONTH, +1 MONTH, -1 DAY, +20 HOURS", "FINISHED, START OF MONTH, +30 DAYS, +18 HOURS",
                "FINISHED, START OF YEAR, +365 DAYS, -1 HOUR", "FINISHED, START OF YEAR, +364 DAYS, +23 HOURS",
                "FINISHED, +5 HOURS, +17 MINUTES, START OF DAY, +18.5 HOURS")) {
            Repeat repeat = RepeatParser.parse(stalls);
            RepeatStallException refused = assertThrows(RepeatStallException.class, repeat::requireProgress, stalls);
            assertFalse(refused.next().isAfter(refused.from()), stalls);
            assertEquals(refused.next(), repeat.next(refused.from(), refused.from(), refused.from()), stalls);
            assertTrue(refused.detail().contains("does not move forward"), refused.detail());
        }
        for (String moves : List.of("FINISHED, +1 HOUR", "SCHEDULED, +1 HOUR", "DAILY", "WEEKLY",
                "FINISHED, +1 DAY, START OF DAY, +4 HOURS", "FINISHED, +1 DAY, WEEKDAY 1, START OF DAY, +6 HOURS",
                "SCHEDULED, +1 MONTH, START OF MONTH", "SCHEDULED, +1 SECOND", "CRON */15 * * * *",
                "SCHEDULED, +1 DAY, START OF MONTH, +1 MONTH, -1 DAY, +20 HOURS", "HOURLY", "SCHEDULED, +1 YEAR")) {
            Repeat repeat = RepeatParser.parse(moves);
            assertEquals(repeat, repeat.requireProgress(), moves);
        }
    }

    @Test
    void scheduledCatchesUpMissedRunsInsteadOfSkippingThem() {
        Instant dueThreeHoursAgo = Instant.parse("2026-11-21T10:00:00Z");
        Instant now = Instant.parse("2026-11-21T13:00:30Z");
        Repeat hourly = RepeatParser.parse("SCHEDULED, +1 HOUR");
        Instant next = hourly.next(dueThreeHoursAgo, now, now);
        assertEquals(Instant.parse("2026-11-21T11:00:00Z"), next);
        assertTrue(next.isBefore(now));
    }

    @Test
    void dropsSubMillisecondDigitsTowardsThePast() {
        Repeat repeat = RepeatParser.parse("FINISHED, +1 SECOND");
        Instant finished = Instant.parse("2026-11-21T10:00:00.123999999Z");
        assertEquals(Instant.parse("2026-11-21T10:00:01.123Z"), repeat.next(SCHEDULED, STARTED, finished));
        Instant beforeEpoch = Instant.parse("1969-12-31T23:59:59.999500Z");
        assertEquals(Instant.parse("1970-01-01T00:00:00.999Z"), repeat.next(SCHEDULED, STARTED, beforeEpoch));
    }

    @Test
    void refusesABaseOutsideTheRange() {
        Repeat repeat = RepeatParser.parse("FINISHED, -1 DAY");
        for (Instant base : List.of(Instant.MAX, Instant.MIN, Instant.parse("-0001-12-31T23:59:59.999Z"),
                Instant.parse("+10000-01-01T00:00:00Z"))) {
            RepeatRangeException e = assertThrows(RepeatRangeException.class, () -> repeat.next(base, base, base));
            assertEquals(base, e.from());
            assertEquals("FINISHED, -1 DAY", e.repeat());
        }
        Instant lastMoment = Instant.parse("9999-12-31T23:59:59.999999999Z");
        assertEquals(Instant.parse("9999-12-30T23:59:59.999Z"), repeat.next(lastMoment, lastMoment, lastMoment));
    }

    @Test
    void rangeDetailNamesTheRepeatAndTheBase() {
        Instant from = Instant.parse("2026-01-01T00:00:00Z");
        RepeatRangeException e = assertThrows(RepeatRangeException.class,
                () -> RepeatParser.parse("scheduled, +9000 years").next(from, from, from));
        assertEquals("repeat 'SCHEDULED, +9000 YEARS' from 2026-01-01T00:00:00Z leaves the supported time range"
                + " 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z", e.detail());
    }

    @Test
    void needsAllThreeTimes() {
        Repeat repeat = RepeatParser.parse("FINISHED, +1 HOUR");
        assertThrows(NullPointerException.class, () -> repeat.next(null, STARTED, FINISHED));
        assertThrows(NullPointerException.class, () -> repeat.next(SCHEDULED, null, FINISHED));
        assertThrows(NullPointerException.class, () -> repeat.next(SCHEDULED, STARTED, null));
    }

    @Test
    void constructedValuesAreCheckedLikeParsedOnes() {
        assertThrows(RepeatSyntaxException.class, () -> new ModifierRepeat(Base.FINISHED, List.of()));
        assertThrows(RepeatSyntaxException.class, () -> new Weekday(7));
        assertThrows(RepeatSyntaxException.class, () -> new Offset(new java.math.BigDecimal("14713"), Unit.YEAR));
        assertEquals(new Offset(java.math.BigDecimal.ZERO, Unit.DAY), new Offset(new java.math.BigDecimal("-0.00"), Unit.DAY));
    }

    private static Instant next(String repeat) {
        return RepeatParser.parse(repeat).next(SCHEDULED, STARTED, FINISHED);
    }
}
