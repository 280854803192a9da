package io.jobfoundry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class WireTimesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "2026-11-21T10:00:00Z           | 2026-11-21T10:00:00Z",
        "2026-11-21t10:00:00z           | 2026-11-21T10:00:00Z",
        "2026-11-21 10:00:00Z           | 2026-11-21T10:00:00Z",
        "2026-11-21T11:30:00+01:30      | 2026-11-21T10:00:00Z",
        "2026-11-21T05:00:00-05:00      | 2026-11-21T10:00:00Z",
        "2026-11-21T10:00:00.5Z         | 2026-11-21T10:00:00.500Z",
        "2026-11-21T10:00:00.123456789Z | 2026-11-21T10:00:00.123456789Z",
        "2026-11-21 10:00:00            | 2026-11-21T10:00:00Z",
        "2026-11-21                     | 2026-11-21T00:00:00Z",
        "0000-01-01T00:00:00Z           | 0000-01-01T00:00:00Z",
        "9999-12-31 23:59:59            | 9999-12-31T23:59:59Z",
    })
    void acceptsTheContractForms(String text, String expected) {
        assertEquals(expected, WireTimes.format(WireTimes.parse("at", text)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "now", "2026-11-21T10:00:00", "2026-11-21T10:00Z", "2026-13-01T00:00:00Z",
        "2026-02-29 00:00:00", "2026-11-21T24:00:00Z", "2026-11-21T10:00:00+19:00", "10000-01-01 00:00:00",
        "2026-11-21 10:00", "2026-11-21T10:00:00.Z", "٢٠٢٦-11-21 10:00:00", " 2026-11-21", "2026-11-21T10:00:00ZZ"})
    void refusesEverythingElse(String text) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> WireTimes.parse("at", text));
        assertEquals("at", e.field());
    }

    @Test
    void epochSecondsAreWholeAndInRange() {
        assertEquals(Instant.parse("2030-01-01T00:00:00Z"), WireTimes.ofEpochSeconds("at", new BigDecimal("1893456000")));
        assertEquals(Instant.parse("2030-01-01T00:00:00Z"), WireTimes.ofEpochSeconds("at", new BigDecimal("1893456000.000")));
        assertEquals(Instant.EPOCH, WireTimes.ofEpochSeconds("at", BigDecimal.ZERO));
        assertThrows(InvalidInputException.class, () -> WireTimes.ofEpochSeconds("at", new BigDecimal("1.5")));
        assertThrows(InvalidInputException.class, () -> WireTimes.ofEpochSeconds("at", new BigDecimal("1e999999999")));
        assertThrows(InvalidInputException.class, () -> WireTimes.ofEpochSeconds("at", new BigDecimal("-1e999999999")));
        assertThrows(InvalidInputException.class, () -> WireTimes.ofEpochSeconds("at", new BigDecimal("253402300800")));
    }

    /** The hand-written formatter writes exactly what ISO_INSTANT writes, across the whole range. */
    @Test
    void formatsAsIsoInstant() {
        SplittableRandom random = new SplittableRandom(20261127);
        long min = WireTimes.MIN.getEpochSecond();
        long max = WireTimes.MAX.getEpochSecond();
        int[] nanoShapes = {0, 1, 999_999_999, 500_000_000, 120_000, 7_000, 123_456_789, 1_000_000};
        for (int i = 0; i < 20_000; i++) {
            long second = random.nextLong(min, max + 1);
            int nano = i % 2 == 0 ? nanoShapes[random.nextInt(nanoShapes.length)] : random.nextInt(1_000_000_000);
            if (i % 3 == 0) {
                nano -= nano % 1_000_000; // milliseconds, what the clock gives
            }
            assertFormattedAsIsoInstant(Instant.ofEpochSecond(second, nano));
        }
        for (Instant edge : new Instant[] {WireTimes.MIN, WireTimes.MAX, Instant.EPOCH, Instant.ofEpochSecond(-1),
                Instant.ofEpochSecond(-1, 1), Instant.parse("1969-12-31T23:59:59.999Z"), Instant.parse("2000-02-29T12:00:00Z"),
                Instant.parse("2026-11-27T23:59:59.999999Z"), Instant.parse("0000-02-29T00:00:00Z")}) {
            assertFormattedAsIsoInstant(edge);
        }
    }

    @Test
    void formatsTimesOutsideTheAcceptedYearsTheGeneralWay() {
        assertFormattedAsIsoInstant(Instant.MAX);
        assertFormattedAsIsoInstant(Instant.MIN);
        assertFormattedAsIsoInstant(WireTimes.MIN.minusNanos(1));
        assertFormattedAsIsoInstant(WireTimes.MAX.plusNanos(1));
        assertEquals(null, WireTimes.format(null));
    }

    private static void assertFormattedAsIsoInstant(Instant instant) {
        assertEquals(DateTimeFormatter.ISO_INSTANT.format(instant), WireTimes.format(instant), instant::toString);
    }
}
