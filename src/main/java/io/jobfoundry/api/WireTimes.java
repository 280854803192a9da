package io.jobfoundry.api;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Times on the wire. Accepted: RFC 3339 ({@code 2026-11-21T10:00:00Z}, {@code T} or a space, any
 * offset, up to nine fraction digits), integer seconds since the epoch as a JSON number
 * (couch_jobs), and Bedrock's {@code YYYY-MM-DD [HH:MM:SS]} in UTC. Emitted: RFC 3339 in UTC.
 * Only the years 0000 to 9999 are accepted: the years a repeat can compute (SQLite's range).
 */
final class WireTimes {

    static final Instant MIN = Instant.parse("0000-01-01T00:00:00Z");
    static final Instant MAX = Instant.parse("9999-12-31T23:59:59.999999999Z");
    private static final long SECONDS_PER_DAY = 86_400;

    private static final Pattern RFC3339 = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})[Tt ](\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?([Zz]|[+-]\\d{2}:\\d{2})");
    private static final Pattern BEDROCK = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})(?: (\\d{2}):(\\d{2}):(\\d{2}))?");
    private static final String EXAMPLES =
            "e.g. \"2026-11-21T10:00:00Z\", \"2026-11-21 10:00:00\" (UTC) or 1795255200 (seconds since the epoch)";

    private WireTimes() {
    }

    /**
     * As {@link DateTimeFormatter#ISO_INSTANT} writes it (no fraction, or 3, 6 or 9 digits of one),
     * by arithmetic: a job carries up to five times and the formatter's general machinery was a
     * twentieth of a {@code GET}'s CPU. Years outside 0000-9999 (no stored time has one) go the
     * general way.
     */
    static String format(Instant instant) {
        if (instant == null) {
            return null;
        }
        long seconds = instant.getEpochSecond();
        if (seconds < MIN.getEpochSecond() || seconds > MAX.getEpochSecond()) {
            return DateTimeFormatter.ISO_INSTANT.format(instant);
        }
        LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(seconds, SECONDS_PER_DAY));
        int secondOfDay = (int) Math.floorMod(seconds, SECONDS_PER_DAY);
        int nanos = instant.getNano();
        char[] out = new char[30];
        digits(out, 0, date.getYear(), 4);
        out[4] = '-';
        digits(out, 5, date.getMonthValue(), 2);
        out[7] = '-';
        digits(out, 8, date.getDayOfMonth(), 2);
        out[10] = 'T';
        digits(out, 11, secondOfDay / 3600, 2);
        out[13] = ':';
        digits(out, 14, secondOfDay / 60 % 60, 2);
        out[16] = ':';
        digits(out, 17, secondOfDay % 60, 2);
        int end = 19;
        if (nanos != 0) {
            out[end++] = '.';
            if (nanos % 1_000_000 == 0) {
                digits(out, end, nanos / 1_000_000, 3);
                end += 3;
            } else if (nanos % 1_000 == 0) {
                digits(out, end, nanos / 1_000, 6);
                end += 6;
            } else {
                digits(out, end, nanos, 9);
                end += 9;
            }
        }
        out[end++] = 'Z';
        return new String(out, 0, end);
    }

    /** {@code value} as exactly {@code width} decimal digits at {@code at}, zero-padded. */
    private static void digits(char[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** @throws InvalidInputException naming {@code field} if the text is no time we accept */
    static Instant parse(String field, String text) {
        try {
            Matcher m = RFC3339.matcher(text);
            if (m.matches()) {
                LocalDateTime local = local(m, m.group(7));
                String offset = m.group(8);
                ZoneOffset zone = offset.equalsIgnoreCase("z") ? ZoneOffset.UTC : ZoneOffset.of(offset);
                return inRange(field, local.toInstant(zone));
            }
            m = BEDROCK.matcher(text);
            if (m.matches()) {
                return inRange(field, local(m, null).toInstant(ZoneOffset.UTC));
            }
        } catch (DateTimeException e) {
            throw new InvalidInputException(field, field + " is not a valid date and time; " + EXAMPLES);
        }
        throw new InvalidInputException(field, field + " is not a time; " + EXAMPLES);
    }

    /** Whole seconds since the epoch. */
    static Instant ofEpochSeconds(String field, BigDecimal seconds) {
        // Compare before converting: a number like 1e999999999 must not be expanded.
        if (seconds.compareTo(BigDecimal.valueOf(MIN.getEpochSecond())) < 0
                || seconds.compareTo(BigDecimal.valueOf(MAX.getEpochSecond())) > 0) {
            throw outOfRange(field);
        }
        if (seconds.stripTrailingZeros().scale() > 0) {
            throw new InvalidInputException(field, field + " as a number is whole seconds since the epoch; "
                    + "write fractions as RFC 3339 text, e.g. \"2026-11-21T10:00:00.250Z\"");
        }
        return Instant.ofEpochSecond(seconds.longValueExact());
    }

    private static LocalDateTime local(Matcher m, String fraction) {
        int nanos = 0;
        if (fraction != null) {
            nanos = Integer.parseInt((fraction + "00000000").substring(0, 9));
        }
        return LocalDateTime.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)), m.group(4) == null ? 0 : Integer.parseInt(m.group(4)),
                m.group(5) == null ? 0 : Integer.parseInt(m.group(5)),
                m.group(6) == null ? 0 : Integer.parseInt(m.group(6)), nanos);
    }

    private static Instant inRange(String field, Instant instant) {
        if (instant.isBefore(MIN) || instant.isAfter(MAX)) {
            throw outOfRange(field);
        }
        return instant;
    }

    private static InvalidInputException outOfRange(String field) {
        return new InvalidInputException(field, field + " must be within the years 0000 to 9999 (UTC)");
    }
}
