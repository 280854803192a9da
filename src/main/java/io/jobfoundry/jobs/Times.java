package io.jobfoundry.jobs;

import java.time.Instant;

/** The engine keeps times as microseconds since the epoch: exact in tuples, ordered in keys. */
final class Times {

    private Times() {
    }

    static long micros(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }

    static Instant instantOrNull(Long micros) {
        return micros == null ? null : instant(micros);
    }
}
