package io.jobfoundry.repeat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * {@code ±N UNIT}: moves the time by {@code amount} units, as SQLite's {@code datetime()} does.
 *
 * <ul>
 *   <li>Seconds, minutes, hours and days are exact durations (no time zones, no leap seconds).
 *   <li>Months and years move the calendar fields by the whole part of {@code amount}, keeping
 *       the day of the month and the time; a day the month does not have overflows into the
 *       next one: {@code 2016-01-31 +1 MONTH} is {@code 2016-03-02}, {@code 2016-02-29 +1 YEAR}
 *       is {@code 2017-03-01}.
 *   <li>The fractional part of a month counts as 30 days and of a year as 365 days, added after
 *       the whole part: {@code 2016-01-31 +1.5 MONTHS} is {@code 2016-03-17}.
 *   <li>The duration is rounded to the millisecond, halves away from zero, computed in
 *       {@code double} exactly as SQLite computes it ({@code +0.0015 SECONDS} adds 2 ms).
 * </ul>
 *
 * @param amount the signed number, kept as the decimal that was written so that the normalized
 *     text reproduces it; canonical: no trailing zeros, zero without sign
 */
public record Offset(BigDecimal amount, Unit unit) implements Modifier {

    public Offset {
        amount = amount.signum() == 0 ? BigDecimal.ZERO : amount.stripTrailingZeros();
        if (!unit.accepts(amount.doubleValue())) {
            throw new RepeatSyntaxException("number out of range for its unit", text(amount, unit),
                    RepeatExamples.OFFSET);
        }
    }

    @Override
    public String normalized() {
        return text(amount, unit);
    }

    private static String text(BigDecimal amount, Unit unit) {
        BigDecimal magnitude = amount.abs();
        return (amount.signum() < 0 ? "-" : "+") + magnitude.toPlainString() + " "
                + unit.label(magnitude.compareTo(BigDecimal.ONE) == 0);
    }

    @Override
    public long applyTo(long epochMillis) {
        // Mirrors date.c: calendar step for the whole months/years, then the rest as a duration
        // with SQLite's rounding. The casts truncate towards zero like C's.
        double r = amount.doubleValue();
        double rounder = r < 0 ? -0.5 : 0.5;
        long millis = epochMillis;
        if (unit == Unit.MONTH || unit == Unit.YEAR) {
            int whole = (int) r;
            millis = unit == Unit.MONTH ? plusMonths(millis, whole) : plusMonths(millis, whole * 12);
            r -= whole;
        }
        return millis + (long) (r * 1000.0 * unit.secondsFactor() + rounder);
    }

    /** Month arithmetic on the fields, letting day-of-month overflow roll forward as SQLite's does. */
    private static long plusMonths(long epochMillis, int months) {
        LocalDateTime time = Timeline.toDateTime(epochMillis);
        int monthIndex = time.getMonthValue() - 1 + months;
        LocalDate firstOfMonth = LocalDate.of(time.getYear() + Math.floorDiv(monthIndex, 12),
                Math.floorMod(monthIndex, 12) + 1, 1);
        return Timeline.toMillis(firstOfMonth.plusDays(time.getDayOfMonth() - 1L).atTime(time.toLocalTime()));
    }
}
