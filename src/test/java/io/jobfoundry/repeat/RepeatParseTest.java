package io.jobfoundry.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RepeatParseTest {

    @ParameterizedTest(name = "''{0}'' is ''{1}''")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            hourly                                        | FINISHED, +1 HOUR
            "  Daily\t"                                   | FINISHED, +1 DAY
            WEEKLY                                        | FINISHED, +7 DAYS
            "finished, + 1 hour"                          | FINISHED, +1 HOUR
            FINISHED, +1 HOUR                             | FINISHED, +1 HOUR
            "scheduled,+01.50 Hours"                      | SCHEDULED, +1.5 HOURS
            "started ,\t-0.0 day"                         | STARTED, +0 DAYS
            FINISHED, 1 hours                             | FINISHED, +1 HOUR
            FINISHED, -1 years                            | FINISHED, -1 YEAR
            FINISHED, -2.000 YEAR                         | FINISHED, -2 YEARS
            FINISHED, +100 SECONDS                        | FINISHED, +100 SECONDS
            FINISHED, +0.0000001 seconds                  | FINISHED, +0.0000001 SECONDS
            FINISHED, +1.10 MONTHS                        | FINISHED, +1.1 MONTHS
            "finished,+1 day,weekday  1 , start   of   day,+6 hours" | FINISHED, +1 DAY, WEEKDAY 1, START OF DAY, +6 HOURS
            "SCHEDULED,\n  START OF MONTH,\r\n  START OF YEAR"  | SCHEDULED, START OF MONTH, START OF YEAR
            "cron  */15 *  * * *"                         | CRON */15 * * * *
            "Cron 0 6 * * mon-fri"                        | CRON 0 6 * * MON-FRI
            "CRON 0 4 1,15 * 5"                           | CRON 0 4 1,15 * 5
            "cron tz=europe/berlin 0 9 * * mon-fri"       | CRON TZ=Europe/Berlin 0 9 * * MON-FRI
            "CRON CRON_TZ=America/New_York  30 2 * * *"   | CRON TZ=America/New_York 30 2 * * *
            "CRON TZ=UTC 0 4 * * *"                       | CRON TZ=UTC 0 4 * * *
            """)
    void normalizes(String text, String normalized) {
        Repeat repeat = RepeatParser.parse(text);
        assertEquals(normalized, repeat.normalized());
        assertEquals(repeat, RepeatParser.parse(normalized));
        assertEquals(normalized, RepeatParser.parse(normalized).normalized());
    }

    @Test
    void cannedNamesAreTheirExpansions() {
        assertEquals(RepeatParser.parse("FINISHED, +1 HOUR"), RepeatParser.parse("hourly"));
        assertEquals(RepeatParser.parse("finished, + 7 days"), RepeatParser.parse("weekly"));
    }

    @Test
    void buildsTheSealedTypes() {
        Repeat bedrock = RepeatParser.parse("SCHEDULED, -1.5 MONTHS, START OF DAY, WEEKDAY 3");
        assertEquals(new ModifierRepeat(Base.SCHEDULED,
                List.of(new Offset(new BigDecimal("-1.5"), Unit.MONTH), StartOf.DAY, new Weekday(3))), bedrock);
        CronRepeat cron = assertInstanceOf(CronRepeat.class, RepeatParser.parse("cron 0 6 * * mon"));
        assertEquals("0 6 * * MON", cron.expression());
        assertFalse(cron.equals(RepeatParser.parse("CRON 0 7 * * MON")));
        assertFalse(cron.equals(RepeatParser.parse("CRON TZ=Europe/Berlin 0 6 * * MON")), "another clock");
    }

    @ParameterizedTest(name = "''{0}'': {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            ""                            | empty repeat                                         | ""
            "  \t "                       | empty repeat                                         | "  \t "
            FINISHED                      | a repeat needs at least one modifier after its base | FINISHED
            finished                      | a repeat needs at least one modifier after its base | finished
            NEVER, +1 HOUR                | unknown repeat base                                  | NEVER
            EVERY HOUR                    | unknown repeat base or canned name                   | EVERY HOUR
            FINISHED +1 HOUR              | a comma must follow the base                         | FINISHED +1 HOUR
            "HOURLY, +1 HOUR"             | a canned repeat takes no modifiers                   | HOURLY
            ", +1 HOUR"                   | missing base before the first comma                  | ""
            "FINISHED, +1 HOUR,"          | empty modifier (a trailing or double comma)          | "FINISHED, +1 HOUR,"
            "FINISHED,, +1 HOUR"          | empty modifier (a trailing or double comma)          | "FINISHED,, +1 HOUR"
            "FINISHED, , +1 HOUR"         | empty modifier (a trailing or double comma)          | "FINISHED, , +1 HOUR"
            FINISHED, +1 FORTNIGHT        | unknown unit (SECOND, MINUTE, HOUR, DAY, MONTH or YEAR, singular or plural) | +1 FORTNIGHT
            FINISHED, +1 WEEK             | unknown unit (SECOND, MINUTE, HOUR, DAY, MONTH or YEAR, singular or plural) | +1 WEEK
            FINISHED, +1 HOURSS           | unknown unit (SECOND, MINUTE, HOUR, DAY, MONTH or YEAR, singular or plural) | +1 HOURSS
            FINISHED, +1 HOUR S           | unknown unit (SECOND, MINUTE, HOUR, DAY, MONTH or YEAR, singular or plural) | +1 HOUR S
            FINISHED, +1HOUR              | expected a number such as 1 or 1.5, then a space and a unit | +1HOUR
            FINISHED, +1                  | expected a number such as 1 or 1.5, then a space and a unit | +1
            FINISHED, + HOUR              | expected a number such as 1 or 1.5, then a space and a unit | + HOUR
            FINISHED, +-1 HOUR            | expected a number such as 1 or 1.5, then a space and a unit | +-1 HOUR
            FINISHED, +NaN HOURS          | expected a number such as 1 or 1.5, then a space and a unit | +NaN HOURS
            FINISHED, -Infinity DAYS      | expected a number such as 1 or 1.5, then a space and a unit | -Infinity DAYS
            FINISHED, +1e3 SECONDS        | expected a number such as 1 or 1.5, then a space and a unit | +1e3 SECONDS
            FINISHED, +.5 HOURS           | expected a number such as 1 or 1.5, then a space and a unit | +.5 HOURS
            FINISHED, +1. HOURS           | expected a number such as 1 or 1.5, then a space and a unit | +1. HOURS
            FINISHED, +0x10 HOURS         | expected a number such as 1 or 1.5, then a space and a unit | +0x10 HOURS
            FINISHED, NaN HOURS           | unknown modifier                                     | NaN HOURS
            FINISHED, START OF DAY, NOW   | unknown modifier                                     | NOW
            FINISHED, +1 HOUR, localtime  | unknown modifier                                     | localtime
            FINISHED, WEEKDAY 7           | WEEKDAY takes a day from 0 (Sunday) to 6 (Saturday)  | WEEKDAY 7
            FINISHED, WEEKDAY -1          | WEEKDAY takes a day from 0 (Sunday) to 6 (Saturday)  | WEEKDAY -1
            FINISHED, WEEKDAY 1.0         | WEEKDAY takes a day from 0 (Sunday) to 6 (Saturday)  | WEEKDAY 1.0
            FINISHED, WEEKDAY             | WEEKDAY takes a day from 0 (Sunday) to 6 (Saturday)  | WEEKDAY
            FINISHED, WEEKDAY 1 2         | WEEKDAY takes a day from 0 (Sunday) to 6 (Saturday)  | WEEKDAY 1 2
            FINISHED, START OF WEEK       | SQLite has no START OF WEEK; combine WEEKDAY N and START OF DAY | START OF WEEK
            FINISHED, START OF HOUR       | expected START OF DAY, MONTH or YEAR                 | START OF HOUR
            FINISHED, START DAY           | expected START OF DAY, MONTH or YEAR                 | START DAY
            FINISHED, +14713 YEARS        | number out of range for its unit                     | +14713 YEARS
            FINISHED, -176546 MONTHS      | number out of range for its unit                     | -176546 MONTHS
            FINISHED, +5373485 DAYS       | number out of range for its unit                     | +5373485 DAYS
            FINISHED, +128970000000 HOURS | number out of range for its unit                     | +128970000000 HOURS
            FINISHED, +99999999999999999999999999 SECONDS | number out of range for its unit     | +99999999999999999999999999 SECONDS
            CRON                          | a cron expression has exactly 5 fields               | CRON
            CRON * * * *                  | a cron expression has exactly 5 fields               | CRON * * * *
            CRON 0 * * * * *              | a cron expression has exactly 5 fields               | CRON 0 * * * * *
            CRON @hourly                  | a cron expression has exactly 5 fields               | CRON @hourly
            CRON 61 * * * *               | invalid cron minute field (0-59)                     | 61
            CRON 0 24 * * *               | invalid cron hour field (0-23)                       | 24
            CRON 0 0 L * *                | invalid cron day-of-month field (1-31)               | L
            CRON 0 0 * 13 *               | invalid cron month field (1-12 or JAN-DEC)           | 13
            CRON 0 0 * * 8                | invalid cron day-of-week field (0-7 or SUN-SAT)      | 8
            CRON 0 0 * * MON-FRU          | invalid cron day-of-week field (0-7 or SUN-SAT)      | MON-FRU
            CRON 0 0 30 2 *               | cron expression never fires                          | CRON 0 0 30 2 *
            CRON TZ=Mars/Olympus 0 9 * * * | unknown time zone (a tz database name such as Europe/Berlin) | Mars/Olympus
            CRON TZ= 0 9 * * *            | unknown time zone (a tz database name such as Europe/Berlin) | TZ=
            CRON TZ=Europe/Berlin         | a cron expression has exactly 5 fields               | CRON TZ=Europe/Berlin
            CRON 0 9 * * * TZ=Europe/Berlin | a cron repeat names its time zone once, right after CRON | TZ=Europe/Berlin
            CRON TZ=UTC TZ=Europe/Berlin 0 9 * * * | a cron repeat names its time zone once, right after CRON | TZ=Europe/Berlin
            CRON */0 * * * *              | invalid cron minute field (0-59): a step of 0 never moves on: '*/0' | */0
            CRON 0 5-1 * * *              | invalid cron hour field (0-23): a range runs from low to high: '5-1' | 5-1
            CRON 0 0 1 FEB-JAN *          | invalid cron month field (1-12 or JAN-DEC): a range runs from low to high: 'FEB-JAN' | FEB-JAN
            CRON 0 0 * * FRI-MON          | invalid cron day-of-week field (0-7 or SUN-SAT): a range runs from low to high: 'FRI-MON' (the week runs from SUN or 0 to SAT or 7) | FRI-MON
            CRON_TZ=Europe/Berlin 0 9 * * * | a cron repeat starts with CRON, its time zone after it: CRON CRON_TZ=Europe/Berlin 0 9 * * * | CRON_TZ=Europe/Berlin
            """)
    void refuses(String text, String message, String offendingPart) {
        RepeatSyntaxException e = assertThrows(RepeatSyntaxException.class, () -> RepeatParser.parse(text));
        assertEquals(message, e.getMessage());
        assertEquals(offendingPart, e.offendingPart());
        assertFalse(e.examples().isEmpty());
        for (String example : e.examples()) {
            assertValidExample(example);
        }
    }

    @Test
    void theLargestNumbersSqliteTakesParse() {
        assertEquals("FINISHED, +14712.99 YEARS", RepeatParser.parse("FINISHED, +14712.99 YEARS").normalized());
        assertEquals("FINISHED, -176545 MONTHS", RepeatParser.parse("FINISHED, -176545 MONTHS").normalized());
        String hugeNumber = "+1" + "0".repeat(400) + " SECONDS";
        RepeatSyntaxException e = assertThrows(RepeatSyntaxException.class, () -> RepeatParser.parse("FINISHED, " + hugeNumber));
        assertEquals(hugeNumber, e.offendingPart());
    }

    @Test
    void capsTheLength() {
        String padded = "FINISHED, +1 HOUR" + " ".repeat(RepeatParser.MAX_LENGTH - 17);
        assertEquals("FINISHED, +1 HOUR", RepeatParser.parse(padded).normalized());
        RepeatSyntaxException e = assertThrows(RepeatSyntaxException.class, () -> RepeatParser.parse(padded + " "));
        assertEquals("repeat longer than 1024 characters", e.getMessage());
        assertTrue(e.detail().length() < 400, e.detail());
    }

    @Test
    void refusesNonAscii() {
        // "ſ" upper-cases to "S", the Turkish dotless "ı" to "I": neither may pass for a unit.
        for (String text : List.of("FINISHED, +1 hourſ", "FINISHED, +1 mınute", "FINISHED,\u00a0+1 HOUR", "FINISHED, +1 HOUR\0")) {
            RepeatSyntaxException e = assertThrows(RepeatSyntaxException.class, () -> RepeatParser.parse(text), text);
            assertEquals("unexpected character (only printable ASCII is allowed)", e.getMessage());
            assertEquals(1, e.offendingPart().length());
        }
    }

    @Test
    void detailNamesTheOffendingPartAndShowsExamples() {
        RepeatSyntaxException e = assertThrows(RepeatSyntaxException.class,
                () -> RepeatParser.parse("finished, +1 fortnight, start of day"));
        assertEquals("unknown unit (SECOND, MINUTE, HOUR, DAY, MONTH or YEAR, singular or plural) in '+1 fortnight';"
                + " valid examples: \"+1 HOUR\", \"-30 MINUTES\", \"+1.5 DAYS\", \"+1 MONTH\", \"+10 SECONDS\"", e.detail());
    }

    @Test
    void detailIsShortAndFreeOfControlCharacters() {
        RepeatSyntaxException e = assertThrows(RepeatSyntaxException.class,
                () -> RepeatParser.parse("FINISHED, +1 " + "X".repeat(100) + "\r\n"));
        assertTrue(e.detail().contains("'+1 " + "X".repeat(61) + "…'"), e.detail());
        RepeatSyntaxException control = assertThrows(RepeatSyntaxException.class, () -> RepeatParser.parse("FINISHED, +1\u000bX"));
        assertTrue(control.detail().contains("'+1?X'"), control.detail());
    }

    @Test
    void nullIsAProgrammingError() {
        assertThrows(NullPointerException.class, () -> RepeatParser.parse(null));
    }

    /** An example in an error message is worthless unless it is valid where it is offered. */
    private static void assertValidExample(String example) {
        String expression = example.matches("[A-Z]+, .*|HOURLY|DAILY|WEEKLY|CRON .*") ? example : "FINISHED, " + example;
        RepeatParser.parse(expression);
    }
}
