package io.jobfoundry.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random expressions and dates (1970–2100), each evaluated by our evaluator and by
 * the real SQLite. Replay a failure with {@code -Drepeat.seed=<seed from the message>}; change the
 * number of cases with {@code -Drepeat.cases=N}.
 */
class SqlitePropertyTest {

    private static final String[] UNITS = {"second", "minute", "hour", "day", "month", "year"};
    /** Magnitudes that usually stay within 1970–2100 give or take a century. */
    private static final long[] TYPICAL = {1_000_000_000L, 20_000_000L, 300_000L, 20_000L, 600L, 50L};
    /** Magnitudes near SQLite's limits, to reach both ends of the range and the parse refusals. */
    private static final double[] HUGE = {4.6427e14, 7.7379e12, 1.2897e11, 5373485, 176546, 14713};
    private static final String[] BASES = {"scheduled", "started", "finished"};
    private static final long FIRST = LocalDate.of(1970, 1, 1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
    private static final long LAST = LocalDate.of(2101, 1, 1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();

    private record Case(String expression, List<String> sqliteModifiers, Instant scheduled, Instant started,
            Instant finished, Instant base) {
    }

    @Test
    void agreesWithSqlite() throws SQLException {
        long seed = Long.getLong("repeat.seed", new SecureRandom().nextLong());
        int cases = Integer.getInteger("repeat.cases", 20_000);
        Random random = new Random(seed);
        int equal = 0;
        int bothOutOfRange = 0;
        int stepOutOfRange = 0;
        int refusedNumbers = 0;
        try (SqliteOracle sqlite = new SqliteOracle()) {
            for (int i = 0; i < cases; i++) {
                Case c = randomCase(random);
                String where = "case " + i + " of seed " + seed + " (replay: -Drepeat.seed=" + seed + "): "
                        + c.expression() + " from " + SqliteOracle.text(c.base()) + " = SQLite strftime('%Y-%m-%d %H:%M:%f', '"
                        + SqliteOracle.text(c.base()) + "', '" + String.join("', '", c.sqliteModifiers()) + "')";
                String expected = sqlite.evaluate(c.base(), c.sqliteModifiers());
                Repeat repeat;
                try {
                    repeat = RepeatParser.parse(c.expression());
                } catch (RepeatSyntaxException e) {
                    // Only a number beyond SQLite's limit may be refused, and SQLite refuses it too.
                    assertEquals("number out of range for its unit", e.getMessage(), where);
                    assertNull(expected, where);
                    refusedNumbers++;
                    continue;
                }
                assertEquals(repeat, RepeatParser.parse(repeat.normalized()), where);
                Instant ours;
                try {
                    ours = repeat.next(c.scheduled(), c.started(), c.finished());
                } catch (RepeatRangeException e) {
                    if (SqliteOracle.inRange(expected)) {
                        assertTrue(someStepOutOfRange(sqlite, c), where + " = " + expected + " but we refused");
                        stepOutOfRange++;
                    } else {
                        bothOutOfRange++;
                    }
                    continue;
                }
                if (!SqliteOracle.inRange(expected)) {
                    fail(where + " is out of range (" + expected + ") but we gave " + ours);
                }
                assertEquals(expected, SqliteOracle.text(ours), where);
                equal++;
            }
        }
        System.out.printf("SqlitePropertyTest seed %d: %d cases, %d equal, %d out of range in both, %d left the range"
                + " on a step, %d numbers refused by both%n", seed, cases, equal, bothOutOfRange, stepOutOfRange,
                refusedNumbers);
        // Guards against a generator that drifted into testing nothing.
        assertTrue(equal > cases * 0.9, "compared only " + equal + " of " + cases);
        assertTrue(bothOutOfRange + stepOutOfRange + refusedNumbers > 0 || cases < 1000,
                "never reached the end of the range");
    }

    /** Whether SQLite, stopping after some modifier, is outside our range there. */
    private static boolean someStepOutOfRange(SqliteOracle sqlite, Case c) throws SQLException {
        for (int k = 1; k < c.sqliteModifiers().size(); k++) {
            if (!SqliteOracle.inRange(sqlite.evaluate(c.base(), c.sqliteModifiers().subList(0, k)))) {
                return true;
            }
        }
        return false;
    }

    private static Case randomCase(Random random) {
        int count = 1 + random.nextInt(4);
        List<String> sqliteModifiers = new ArrayList<>(count);
        StringBuilder expression = new StringBuilder(variantCase(random, BASES[random.nextInt(3)]));
        for (int i = 0; i < count; i++) {
            String[] modifier = randomModifier(random);
            sqliteModifiers.add(modifier[0]);
            expression.append(space(random, 0)).append(',').append(space(random, 0)).append(modifier[1]);
        }
        Instant scheduled = Instant.ofEpochMilli(randomMillis(random));
        Instant started = scheduled.plusMillis(random.nextInt(3_600_000));
        Instant finished = started.plusMillis(random.nextInt(3_600_000));
        String base = expression.substring(0, expression.indexOf(",")).strip().toUpperCase();
        Instant from = switch (base) {
            case "SCHEDULED" -> scheduled;
            case "STARTED" -> started;
            default -> finished;
        };
        return new Case(expression.toString(), sqliteModifiers, scheduled, started, finished, from);
    }

    /** {SQLite's text, our text}: the same modifier, ours with the liberties our grammar allows. */
    private static String[] randomModifier(Random random) {
        int kind = random.nextInt(100);
        if (kind < 15) {
            String unit = variantCase(random, new String[] {"day", "month", "year"}[random.nextInt(3)]);
            return new String[] {variantCase(random, "start of ") + unit,
                    variantCase(random, "start") + space(random, 1) + variantCase(random, "of") + space(random, 1) + unit};
        }
        if (kind < 30) {
            int day = random.nextInt(7);
            return new String[] {variantCase(random, "weekday ") + day, variantCase(random, "weekday") + space(random, 1) + day};
        }
        int unitIndex = random.nextInt(UNITS.length);
        String unit = variantCase(random, UNITS[unitIndex] + (random.nextBoolean() ? "s" : ""));
        String number = randomNumber(random, unitIndex);
        String sign = switch (random.nextInt(10)) {
            case 0 -> "";
            case 1, 2, 3, 4 -> "-";
            default -> "+";
        };
        String ours = sign + (sign.isEmpty() ? "" : space(random, 0)) + number + space(random, 1) + unit;
        return new String[] {sign + number + " " + unit, ours};
    }

    private static String randomNumber(Random random, int unitIndex) {
        int shape = random.nextInt(100);
        String number;
        if (shape < 35) {
            number = Integer.toString(random.nextInt(4));
        } else if (shape < 65) {
            number = Long.toString((long) (random.nextDouble() * TYPICAL[unitIndex]));
        } else if (shape < 92) {
            long whole = random.nextBoolean() ? random.nextInt(4) : (long) (random.nextDouble() * TYPICAL[unitIndex]);
            number = whole + "." + digits(random, 1 + random.nextInt(6));
        } else if (shape < 99) {
            // A fraction ending in 5 often lands on half a millisecond: SQLite's rounding decides.
            number = random.nextInt(3) + "." + digits(random, random.nextInt(4)) + "5";
        } else {
            number = Long.toString((long) (HUGE[unitIndex] * (0.5 + random.nextDouble())));
        }
        if (random.nextInt(10) == 0) {
            number = number.contains(".") ? number + "00" : "0" + number;
        }
        return number;
    }

    private static long randomMillis(Random random) {
        long millis = FIRST + (long) (random.nextDouble() * (LAST - FIRST));
        LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), 0, ZoneOffset.UTC);
        int shape = random.nextInt(10);
        if (shape < 3) {
            // Month ends and leap days, where the calendar arithmetic has its corners.
            LocalDate date = time.toLocalDate();
            int day = date.lengthOfMonth() - random.nextInt(4);
            time = date.withDayOfMonth(day).atTime(time.toLocalTime());
        } else if (shape == 3) {
            time = time.toLocalDate().atTime(LocalTime.MIDNIGHT);
        }
        long result = time.toInstant(ZoneOffset.UTC).toEpochMilli();
        return shape == 4 ? result : result + Math.floorMod(millis, 1000);
    }

    private static String digits(Random random, int count) {
        StringBuilder digits = new StringBuilder(count);
        for (int i = 0; i < count; i++) {
            digits.append((char) ('0' + random.nextInt(10)));
        }
        return digits.toString();
    }

    private static String variantCase(Random random, String word) {
        return switch (random.nextInt(3)) {
            case 0 -> word.toUpperCase();
            case 1 -> word.toLowerCase();
            default -> Character.toUpperCase(word.charAt(0)) + word.substring(1);
        };
    }

    /** At least {@code min} whitespace characters, sometimes more and not only spaces. */
    private static String space(Random random, int min) {
        return switch (random.nextInt(6)) {
            case 0 -> " ".repeat(min + 1);
            case 1 -> " ".repeat(min) + "\t";
            default -> " ".repeat(min);
        };
    }
}
