package io.jobfoundry.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class CronRepeatTest {

    private static final Repeat QUARTER_HOURS = Repeat.parse("CRON */15 * * * *");

    @Test
    void firesOnTheGridAfterTheRunFinished() {
        Instant scheduled = Instant.parse("2026-11-21T10:00:00Z");
        Instant started = Instant.parse("2026-11-21T10:05:00Z");
        Instant finished = Instant.parse("2026-11-21T10:20:00Z");
        // 10:15 passed while the run was going: skipped, as cron would not start it twice.
        assertEquals(Instant.parse("2026-11-21T10:30:00Z"), QUARTER_HOURS.next(scheduled, started, finished));
    }

    @Test
    void isStrictlyAfterAFinishOnTheGrid() {
        Instant scheduled = Instant.parse("2026-11-21T10:00:00Z");
        Instant finished = Instant.parse("2026-11-21T10:15:00Z");
        assertEquals(Instant.parse("2026-11-21T10:30:00Z"), QUARTER_HOURS.next(scheduled, scheduled, finished));
    }

    @Test
    void neverRepeatsTheScheduledSlotWhenTheFinishClockLags() {
        Instant scheduled = Instant.parse("2026-11-21T10:15:00Z");
        Instant finished = Instant.parse("2026-11-21T10:14:59.200Z");
        assertEquals(Instant.parse("2026-11-21T10:30:00Z"), QUARTER_HOURS.next(scheduled, finished, finished));
    }

    @Test
    void doesNotCatchUpMissedSlots() {
        Instant dueYesterday = Instant.parse("2026-11-20T10:00:00Z");
        Instant finishedNow = Instant.parse("2026-11-21T10:07:00Z");
        assertEquals(Instant.parse("2026-11-21T10:15:00Z"), QUARTER_HOURS.next(dueYesterday, finishedNow, finishedNow));
    }

    @Test
    void dropsSubMillisecondDigitsLikeTheModifierRepeats() {
        Instant finished = Instant.parse("2026-11-21T10:14:59.999900Z");
        assertEquals(Instant.parse("2026-11-21T10:15:00Z"), QUARTER_HOURS.next(finished, finished, finished));
    }

    @Test
    void readsNamesAndTheEitherDayRuleInUtc() {
        Instant saturday = Instant.parse("2026-11-21T10:00:00Z");
        assertEquals(Instant.parse("2026-11-23T06:00:00Z"), Repeat.parse("CRON 0 6 * * mon").next(saturday, saturday, saturday));
        // Day-of-month 1 or 15, or any Friday: Friday the 27th comes before 1 December.
        Instant next = Repeat.parse("CRON 0 4 1,15 * 5").next(saturday, saturday, saturday);
        assertEquals(Instant.parse("2026-11-27T04:00:00Z"), next);
        assertEquals(DayOfWeek.FRIDAY, next.atZone(ZoneOffset.UTC).getDayOfWeek());
        Instant feb = Instant.parse("2027-03-01T00:00:00Z");
        assertEquals(Instant.parse("2028-02-29T00:00:00Z"), Repeat.parse("CRON 0 0 29 2 *").next(feb, feb, feb));
    }

    @Test
    void refusesATimeAfterTheYear9999() {
        Instant late = Instant.parse("9999-06-01T00:00:00Z");
        Repeat newYear = Repeat.parse("CRON 0 0 1 1 *");
        RepeatRangeException e = assertThrows(RepeatRangeException.class, () -> newYear.next(late, late, late));
        assertEquals("CRON 0 0 1 1 *", e.repeat());
        assertEquals(Instant.parse("9999-12-31T23:45:00Z"),
                QUARTER_HOURS.next(Instant.parse("9999-12-31T23:40:00Z"), late, late));
        Instant last = Instant.parse("9999-12-31T23:45:00Z");
        assertThrows(RepeatRangeException.class, () -> QUARTER_HOURS.next(last, last, last));
    }
}
