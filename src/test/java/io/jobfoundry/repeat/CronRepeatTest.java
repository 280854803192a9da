package io.jobfoundry.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class CronRepeatTest {

    private static final Repeat QUARTER_HOURS = RepeatParser.parse("CRON */15 * * * *");

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
        assertEquals(Instant.parse("2026-11-23T06:00:00Z"), RepeatParser.parse("CRON 0 6 * * mon").next(saturday, saturday, saturday));
        // Day-of-month 1 or 15, or any Friday: Friday the 27th comes before 1 December.
        Instant next = RepeatParser.parse("CRON 0 4 1,15 * 5").next(saturday, saturday, saturday);
        assertEquals(Instant.parse("2026-11-27T04:00:00Z"), next);
        assertEquals(DayOfWeek.FRIDAY, next.atZone(ZoneOffset.UTC).getDayOfWeek());
        Instant feb = Instant.parse("2027-03-01T00:00:00Z");
        assertEquals(Instant.parse("2028-02-29T00:00:00Z"), RepeatParser.parse("CRON 0 0 29 2 *").next(feb, feb, feb));
    }

    /** crontab(5): a day field that starts with '*' is no restriction, so both fields must match. */
    @Test
    void aDayFieldStartingWithAStarMakesBothDayFieldsCount() {
        Instant saturday = Instant.parse("2026-11-21T10:00:00Z");
        // Odd-numbered Mondays: the 23rd, then 7 and 21 December (not the 25th, an odd Wednesday).
        assertEquals(List.of(Instant.parse("2026-11-23T00:00:00Z"), Instant.parse("2026-12-07T00:00:00Z"),
                Instant.parse("2026-12-21T00:00:00Z")), runs("CRON 0 0 */2 * 1", saturday, 3));
        // The first of a month that is a Sunday, Tuesday, Thursday or Saturday: 1 December 2026 is a Tuesday.
        assertEquals(List.of(Instant.parse("2026-12-01T00:00:00Z"), Instant.parse("2027-04-01T00:00:00Z")),
                runs("CRON 0 0 1 * */2", saturday, 2));
        // Days 1, 11, 21, 31 that are Mondays: 21 December is the first.
        assertEquals(Instant.parse("2026-12-21T00:00:00Z"), runs("CRON 0 0 */10 * MON", saturday, 1).get(0));
        // A plain star is no restriction either way: every Monday.
        assertEquals(Instant.parse("2026-11-30T00:00:00Z"), runs("CRON 0 0 * * 1", saturday, 2).get(1));
    }

    /**
     * SUN begins a week as 0 does: a range from it runs forward to the day it names (SUN-THU, a
     * working week in much of the world), and one to it ends the week as 7 does.
     */
    @Test
    void sundayBeginsARangeAsZeroAndEndsOneAsSeven() {
        Instant saturday = Instant.parse("2026-11-21T10:00:00Z");
        for (String[] same : new String[][] {{"SUN-THU", "0-4"}, {"SUN-SAT", "*"}, {"SUN-TUE/2", "0,2"},
                {"FRI-SUN", "5-7"}, {"SUN", "0"}, {"SUN,WED", "0,3"}, {"SAT-SUN", "6,0"}, {"SUN-SUN", "7"}}) {
            assertEquals(runs("CRON 0 9 * * " + same[1], saturday, 14), runs("CRON 0 9 * * " + same[0], saturday, 14),
                    same[0]);
        }
        List<DayOfWeek> week = runs("CRON 0 9 * * sun-thu", saturday, 5).stream()
                .map(run -> run.atZone(ZoneOffset.UTC).getDayOfWeek()).toList();
        assertEquals(List.of(DayOfWeek.SUNDAY, DayOfWeek.MONDAY, DayOfWeek.TUESDAY, DayOfWeek.WEDNESDAY,
                DayOfWeek.THURSDAY), week);
        assertEquals("CRON 0 9 * * SUN-THU", RepeatParser.parse("CRON 0 9 * * sun-thu").normalized(),
                "shown as written");
    }

    @Test
    void readsTheFieldsOnTheZonesClockSummerAndWinter() {
        String weekdayMornings = "CRON TZ=Europe/Berlin 0 9 * * MON-FRI";
        // Saturday 21 November: Monday 09:00 in Berlin is 08:00 UTC (CET); in July it is 07:00 (CEST).
        assertEquals(List.of(Instant.parse("2026-11-23T08:00:00Z"), Instant.parse("2026-11-24T08:00:00Z")),
                runs(weekdayMornings, Instant.parse("2026-11-21T10:00:00Z"), 2));
        assertEquals(Instant.parse("2026-07-06T07:00:00Z"),
                runs(weekdayMornings, Instant.parse("2026-07-04T10:00:00Z"), 1).get(0));
        // The day is Berlin's too: 00:30 on Monday in Berlin is still Sunday in UTC.
        assertEquals(Instant.parse("2026-11-22T23:30:00Z"),
                runs("CRON TZ=Europe/Berlin 30 0 * * MON", Instant.parse("2026-11-21T10:00:00Z"), 1).get(0));
    }

    /** New York springs forward on 8 March 2026: 02:00 EST becomes 03:00 EDT (07:00 UTC). */
    @Test
    void aTimeOfDayTheClockSkipsRunsAtTheJump() {
        Instant saturday = Instant.parse("2026-03-07T12:00:00Z");
        assertEquals(List.of(Instant.parse("2026-03-08T07:00:00Z"),
                Instant.parse("2026-03-09T06:30:00Z"), Instant.parse("2026-03-10T06:30:00Z")),
                runs("CRON TZ=America/New_York 30 2 * * *", saturday, 3), "02:30 runs at 03:00 EDT that night, not never");
        // Slots the jump skips run together at it, once: 02:00 and 02:30 with 03:00 itself.
        assertEquals(List.of(Instant.parse("2026-03-08T06:00:00Z"), Instant.parse("2026-03-08T06:30:00Z"),
                Instant.parse("2026-03-08T07:00:00Z"), Instant.parse("2026-03-08T07:30:00Z"),
                Instant.parse("2026-03-09T05:00:00Z")),
                runs("CRON TZ=America/New_York 0,30 1-3 * * *", Instant.parse("2026-03-08T05:00:00Z"), 5));
    }

    /** New York falls back on 1 November 2026: 02:00 EDT becomes 01:00 EST (06:00 UTC). */
    @Test
    void aTimeOfDayTheClockShowsTwiceRunsTheFirstTime() {
        Instant saturday = Instant.parse("2026-10-31T12:00:00Z");
        assertEquals(List.of(Instant.parse("2026-11-01T05:30:00Z"), Instant.parse("2026-11-02T06:30:00Z")),
                runs("CRON TZ=America/New_York 30 1 * * *", saturday, 2), "01:30 EDT, not again at 01:30 EST");
        // A run that ends in the repeated hour does not run that hour's 01:30 a second time.
        Instant inTheSecondPass = Instant.parse("2026-11-01T06:10:00Z");
        assertEquals(Instant.parse("2026-11-02T06:30:00Z"), RepeatParser.parse("CRON TZ=America/New_York 30 1 * * *")
                .next(Instant.parse("2026-11-01T05:30:00Z"), inTheSecondPass, inTheSecondPass));
        assertEquals(List.of(Instant.parse("2026-11-01T05:00:00Z"), Instant.parse("2026-11-01T05:30:00Z"),
                Instant.parse("2026-11-01T07:00:00Z"), Instant.parse("2026-11-01T07:30:00Z")),
                runs("CRON TZ=America/New_York 0,30 1-3 * * *", Instant.parse("2026-11-01T04:00:00Z"), 4),
                "01:00 and 01:30 once each, then 02:00 EST");
    }

    /** A minute or hour field starting with {@code *} keeps real time across both changes, as cronie does. */
    @Test
    void anExpressionOnTheClockKeepsRealTimeAcrossTheChanges() {
        String halfHours = "CRON TZ=America/New_York */30 * * * *";
        assertEquals(List.of(Instant.parse("2026-11-01T05:00:00Z"), Instant.parse("2026-11-01T05:30:00Z"),
                Instant.parse("2026-11-01T06:00:00Z"), Instant.parse("2026-11-01T06:30:00Z"),
                Instant.parse("2026-11-01T07:00:00Z")),
                runs(halfHours, Instant.parse("2026-11-01T04:45:00Z"), 5), "through the hour shown twice");
        assertEquals(List.of(Instant.parse("2026-03-08T06:30:00Z"), Instant.parse("2026-03-08T07:00:00Z"),
                Instant.parse("2026-03-08T07:30:00Z")),
                runs(halfHours, Instant.parse("2026-03-08T06:15:00Z"), 3), "01:30 EST, then 03:00 EDT");
        assertEquals(List.of(Instant.parse("2026-11-01T05:15:00Z"), Instant.parse("2026-11-01T06:15:00Z"),
                Instant.parse("2026-11-01T07:15:00Z")),
                runs("CRON TZ=America/New_York 15 * * * *", Instant.parse("2026-11-01T05:00:00Z"), 3));
    }

    /** Changes at midnight (Santiago) and by half an hour (Lord Howe Island) follow the same rules. */
    @Test
    void changesAtMidnightAndByHalfAnHourFollowTheSameRules() {
        // Santiago springs forward at 00:00 on 6 September 2026: midnight runs at the jump, 01:00.
        assertEquals(List.of(Instant.parse("2026-09-05T04:00:00Z"), Instant.parse("2026-09-06T04:00:00Z"),
                Instant.parse("2026-09-07T03:00:00Z")),
                runs("CRON TZ=America/Santiago 0 0 * * *", Instant.parse("2026-09-04T12:00:00Z"), 3));
        // Lord Howe Island goes from 02:00 to 02:30 on 4 October 2026, and back from 02:00 to 01:30
        // on 5 April 2026 (UTC+11 to +10:30).
        assertEquals(Instant.parse("2026-10-03T15:30:00Z"),
                runs("CRON TZ=Australia/Lord_Howe 15 2 * * *", Instant.parse("2026-10-03T12:00:00Z"), 1).get(0));
        assertEquals(List.of(Instant.parse("2026-04-04T14:45:00Z"), Instant.parse("2026-04-05T15:15:00Z")),
                runs("CRON TZ=Australia/Lord_Howe 45 1 * * *", Instant.parse("2026-04-04T12:00:00Z"), 2),
                "01:45 once, the first time");
    }

    @Test
    void aZoneOfUtcIsTheDefaultClock() {
        Instant from = Instant.parse("2026-03-07T12:00:00Z");
        assertEquals(runs("CRON 30 2 * * *", from, 30), runs("CRON TZ=UTC 30 2 * * *", from, 30));
        assertEquals(runs("CRON 0 0 */2 * 1", from, 10), runs("CRON TZ=Etc/UTC 0 0 */2 * 1", from, 10));
    }

    private static List<Instant> runs(String repeat, Instant from, int count) {
        return RepeatPreview.upcoming(RepeatParser.parse(repeat), from, from, from, count);
    }

    @Test
    void refusesATimeAfterTheYear9999() {
        Instant late = Instant.parse("9999-06-01T00:00:00Z");
        Repeat newYear = RepeatParser.parse("CRON 0 0 1 1 *");
        RepeatRangeException e = assertThrows(RepeatRangeException.class, () -> newYear.next(late, late, late));
        assertEquals("CRON 0 0 1 1 *", e.repeat());
        assertEquals(Instant.parse("9999-12-31T23:45:00Z"),
                QUARTER_HOURS.next(Instant.parse("9999-12-31T23:40:00Z"), late, late));
        Instant last = Instant.parse("9999-12-31T23:45:00Z");
        assertThrows(RepeatRangeException.class, () -> QUARTER_HOURS.next(last, last, last));
    }
}
