package io.jobfoundry.jobs.records;

import java.time.Duration;
import java.time.Instant;

/** The engine keeps times as microseconds since the epoch: exact in tuples, ordered in keys. */
public final class Times {

    /** The longest duration a metric records: far beyond any real wait or run. */
    static final Duration MAX_FOR_METRICS = Duration.ofDays(3650);

    private Times() {
    }

    public static long micros(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    }

    public static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }

    /**
     * The time from {@code fromMicros} to {@code toMicros} for a metric: at least zero, and at
     * most {@link #MAX_FOR_METRICS}. A timer adds every duration to a running sum of nanoseconds,
     * which a few durations of centuries would overflow for good.
     */
    public static Duration elapsedForMetrics(long fromMicros, long toMicros) {
        long micros = toMicros - fromMicros; // both lie within the years 0000–9999: no overflow
        if (micros <= 0) {
            return Duration.ZERO;
        }
        return micros >= MAX_FOR_METRICS.toNanos() / 1_000 ? MAX_FOR_METRICS : Duration.ofNanos(micros * 1_000);
    }

    public static Instant instantOrNull(Long micros) {
        return micros == null ? null : instant(micros);
    }
}
