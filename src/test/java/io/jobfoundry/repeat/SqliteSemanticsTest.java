package io.jobfoundry.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Edge cases of SQLite's date arithmetic, each checked three ways: the expected value written
 * here (the behaviour we document), the real SQLite, and our evaluator.
 */
class SqliteSemanticsTest {

    private static final String RANGE = "RANGE";

    private static SqliteOracle sqlite;

    @BeforeAll
    static void open() throws SQLException {
        sqlite = new SqliteOracle();
    }

    @AfterAll
    static void close() throws SQLException {
        sqlite.close();
    }

    @ParameterizedTest(name = "{0} | {1} = {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # month ends: a day the month lacks rolls over into the next month
            2016-01-31 10:00:00.000 | +1 MONTH                          | 2016-03-02 10:00:00.000
            2016-03-31 10:00:00.000 | -1 MONTH                          | 2016-03-02 10:00:00.000
            2026-01-31 00:00:00.000 | +2 MONTHS                         | 2026-03-31 00:00:00.000
            2026-01-31 00:00:00.000 | +1 MONTH, +1 MONTH                | 2026-04-03 00:00:00.000
            2026-12-31 00:00:00.000 | +2 MONTHS                         | 2027-03-03 00:00:00.000
            2026-05-31 12:00:00.000 | -13 MONTHS                        | 2025-05-01 12:00:00.000
            2016-01-31 10:00:00.000 | +1 MONTH, START OF MONTH          | 2016-03-01 00:00:00.000
            2016-01-31 10:00:00.000 | START OF MONTH, +1 MONTH          | 2016-02-01 00:00:00.000
            2026-02-14 09:30:00.000 | START OF MONTH, +1 MONTH, -1 DAY  | 2026-02-28 00:00:00.000
            2024-02-14 09:30:00.000 | START OF MONTH, +1 MONTH, -1 DAY  | 2024-02-29 00:00:00.000
            # leap days
            2016-02-29 10:00:00.000 | +1 YEAR                           | 2017-03-01 10:00:00.000
            2016-02-29 10:00:00.000 | +4 YEARS                          | 2020-02-29 10:00:00.000
            2016-02-29 10:00:00.000 | -1 YEAR                           | 2015-03-01 10:00:00.000
            2016-02-29 10:00:00.000 | +12 MONTHS                        | 2017-03-01 10:00:00.000
            2000-02-29 00:00:00.000 | +100 YEARS                        | 2100-03-01 00:00:00.000
            2024-02-28 23:00:00.000 | +1 HOUR                           | 2024-02-29 00:00:00.000
            # fractional months and years: whole part on the calendar, the rest as 30 or 365 days
            2016-01-31 10:00:00.000 | +1.5 MONTHS                       | 2016-03-17 10:00:00.000
            2016-01-31 10:00:00.000 | -1.5 MONTHS                       | 2015-12-16 10:00:00.000
            2026-03-15 00:00:00.000 | -1.25 MONTHS                      | 2026-02-07 12:00:00.000
            2026-01-01 00:00:00.000 | +0.1 MONTHS                       | 2026-01-04 00:00:00.000
            2016-02-29 10:00:00.000 | +0.5 YEARS                        | 2016-08-29 22:00:00.000
            2026-01-01 00:00:00.000 | +1.5 YEARS                        | 2027-07-02 12:00:00.000
            2026-01-01 00:00:00.000 | -0.5 YEARS                        | 2025-07-02 12:00:00.000
            # fractional durations round to the millisecond, halves away from zero
            2016-01-01 10:00:00.000 | +0.0015 SECONDS                   | 2016-01-01 10:00:00.002
            2016-01-01 10:00:00.000 | -0.0015 SECONDS                   | 2016-01-01 09:59:59.998
            2016-01-01 10:00:00.000 | +1.0005 SECONDS                   | 2016-01-01 10:00:01.001
            2016-01-01 10:00:00.000 | +0.0004 SECONDS                   | 2016-01-01 10:00:00.000
            2016-01-01 10:00:00.000 | +0.00001 DAYS                     | 2016-01-01 10:00:00.864
            2016-01-01 10:00:00.000 | +0.3333333 HOURS                  | 2016-01-01 10:20:00.000
            2016-01-01 10:00:00.000 | +1.5 HOURS                        | 2016-01-01 11:30:00.000
            2016-01-01 10:00:00.000 | +90 MINUTES, -0.5 DAYS            | 2015-12-31 23:30:00.000
            # negative offsets across boundaries
            2016-03-01 00:00:00.000 | -1 SECOND                         | 2016-02-29 23:59:59.000
            2016-01-01 00:00:00.000 | -1 DAY                            | 2015-12-31 00:00:00.000
            1970-01-01 00:00:00.000 | -1.5 SECONDS                      | 1969-12-31 23:59:58.500
            # WEEKDAY keeps the time and stays put on the right day (2024-01-01 is a Monday)
            2024-01-01 10:00:00.000 | WEEKDAY 1                         | 2024-01-01 10:00:00.000
            2024-01-01 10:00:00.000 | WEEKDAY 0                         | 2024-01-07 10:00:00.000
            2024-01-01 10:00:00.000 | WEEKDAY 6                         | 2024-01-06 10:00:00.000
            2024-01-01 10:00:00.000 | +1 DAY, WEEKDAY 1                 | 2024-01-08 10:00:00.000
            2024-01-07 23:59:59.999 | WEEKDAY 0                         | 2024-01-07 23:59:59.999
            2024-01-07 23:59:59.999 | WEEKDAY 1                         | 2024-01-08 23:59:59.999
            # START OF and WEEKDAY together
            2024-01-03 15:45:10.250 | +1 DAY, WEEKDAY 1, START OF DAY, +6 HOURS | 2024-01-08 06:00:00.000
            2024-01-03 15:45:10.250 | +1 DAY, START OF DAY, +4 HOURS     | 2024-01-04 04:00:00.000
            2024-01-03 15:45:10.250 | START OF MONTH, WEEKDAY 1         | 2024-01-01 00:00:00.000
            2024-02-15 08:00:00.000 | START OF MONTH, WEEKDAY 1         | 2024-02-05 00:00:00.000
            2024-05-20 08:00:00.000 | START OF YEAR, WEEKDAY 0          | 2024-01-07 00:00:00.000
            2024-12-31 23:59:59.999 | START OF YEAR                     | 2024-01-01 00:00:00.000
            2024-12-31 23:59:59.999 | START OF DAY, -1 DAY, START OF MONTH | 2024-12-01 00:00:00.000
            2024-12-31 23:59:59.999 | WEEKDAY 3, START OF YEAR          | 2025-01-01 00:00:00.000
            # the ends of the range
            9999-12-31 23:00:00.000 | +1 HOUR                           | RANGE
            9999-12-31 23:00:00.000 | +59.99999 MINUTES                 | 9999-12-31 23:59:59.999
            9999-12-01 00:00:00.000 | +1 MONTH                          | RANGE
            2026-01-01 00:00:00.000 | +7973 YEARS                       | 9999-01-01 00:00:00.000
            2026-01-01 00:00:00.000 | +7974 YEARS                       | RANGE
            0000-01-01 00:00:00.000 | +0 SECONDS                        | 0000-01-01 00:00:00.000
            0000-01-01 00:00:00.000 | -1 SECOND                         | RANGE
            2026-01-01 00:00:00.000 | -2027 YEARS                       | RANGE
            """)
    void matchesSqlite(String base, String modifiers, String expected) throws SQLException {
        List<String> parts = Arrays.stream(modifiers.split(",")).map(String::trim).toList();
        String fromSqlite = sqlite.evaluate(base, parts);
        Repeat repeat = RepeatParser.parse("SCHEDULED, " + modifiers);
        Instant from = SqliteOracle.instant(base);

        if (expected.equals(RANGE)) {
            assertFalse(SqliteOracle.inRange(fromSqlite), "SQLite gave " + fromSqlite);
            assertThrows(RepeatRangeException.class, () -> repeat.next(from, from, from));
        } else {
            assertEquals(expected, fromSqlite, "SQLite");
            assertEquals(expected, SqliteOracle.text(repeat.next(from, from, from)), "ours");
        }
    }

    /** SQLite lets an intermediate step leave the range if a later one comes back; we do not. */
    @Test
    void everyStepMustStayInRange() throws SQLException {
        assertEquals("9999-12-31 10:00:00.000",
                sqlite.evaluate("9999-12-31 10:00:00.000", List.of("+1 DAY", "-1 DAY")));
        Instant from = Instant.parse("9999-12-31T10:00:00Z");
        Repeat repeat = RepeatParser.parse("SCHEDULED, +1 DAY, -1 DAY");
        assertThrows(RepeatRangeException.class, () -> repeat.next(from, from, from));
    }

    /** What the documentation says about Bedrock's own spelling and about sub-millisecond input. */
    @Test
    void sqliteItselfRefusesASpaceAfterTheSignAndRoundsSubMillisecondText() throws SQLException {
        assertEquals(null, sqlite.evaluate("2016-01-01 10:00:00.000", List.of("+ 1 HOUR")));
        assertEquals("2016-01-01 10:00:00.001", sqlite.evaluate("2016-01-01 10:00:00.0005", List.of()));
        assertEquals("2016-01-01 10:00:00.999", sqlite.evaluate("2016-01-01 10:00:00.9996", List.of()));
    }
}
