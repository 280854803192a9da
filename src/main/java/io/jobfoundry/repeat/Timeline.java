package io.jobfoundry.repeat;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The timeline repeats are computed on: UTC, whole milliseconds (SQLite keeps a time as an integer
 * count of milliseconds), years 0000 to 9999 (SQLite writes years with four digits).
 *
 * <p>SQLite itself accepts Julian day numbers back to 4714 BC and tolerates a step that leaves the
 * range as long as a later one comes back; a job schedule has no use for either, so every step
 * must stay inside.
 */
final class Timeline {

    static final String RANGE_TEXT = "0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z";
    static final long MIN_MILLIS = Instant.parse("0000-01-01T00:00:00Z").toEpochMilli();
    static final long MAX_MILLIS = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
    static final long MILLIS_PER_DAY = 86_400_000L;

    private static final Instant MIN = Instant.ofEpochMilli(MIN_MILLIS);
    private static final Instant END = Instant.ofEpochMilli(MAX_MILLIS + 1);

    private Timeline() {
    }

    static boolean contains(long millis) {
        return millis >= MIN_MILLIS && millis <= MAX_MILLIS;
    }

    /** Whether the instant, cut to whole milliseconds, is inside the range. */
    static boolean contains(Instant instant) {
        return !instant.isBefore(MIN) && instant.isBefore(END);
    }

    /**
     * The instant in whole milliseconds; it must be {@linkplain #contains(Instant) inside}.
     * Sub-millisecond digits are dropped (towards the past), so a base never moves later than the
     * event it records.
     */
    static long toMillis(Instant instant) {
        return instant.toEpochMilli();
    }

    static LocalDateTime toDateTime(long millis) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), (int) Math.floorMod(millis, 1000) * 1_000_000,
                ZoneOffset.UTC);
    }

    static long toMillis(LocalDateTime dateTime) {
        return dateTime.toEpochSecond(ZoneOffset.UTC) * 1000 + dateTime.getNano() / 1_000_000;
    }
}
