package io.jobfoundry.repeat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepeatPreviewTest {

    private static final Instant SCHEDULED = Instant.parse("2026-11-21T13:00:00Z");
    private static final Instant STARTED = Instant.parse("2026-11-21T13:15:00Z");
    private static final Instant FINISHED = Instant.parse("2026-11-21T13:45:00Z");

    @Test
    void eachFurtherRunCountsFromThePreviousOnesTime() {
        assertEquals(List.of(Instant.parse("2026-11-21T14:45:00Z"), Instant.parse("2026-11-21T15:45:00Z"),
                Instant.parse("2026-11-21T16:45:00Z")), preview("FINISHED, +1 HOUR", 3));
        assertEquals(List.of(Instant.parse("2026-11-21T14:00:00Z"), Instant.parse("2026-11-21T15:00:00Z")),
                preview("SCHEDULED, +1 HOUR", 2));
    }

    @Test
    void monthEndsDriftAsTheyWouldRunByRun() {
        Instant jan31 = Instant.parse("2026-01-31T00:00:00Z");
        assertEquals(List.of(Instant.parse("2026-03-03T00:00:00Z"), Instant.parse("2026-04-03T00:00:00Z")),
                RepeatPreview.upcoming(RepeatParser.parse("SCHEDULED, +1 MONTH"), jan31, jan31, jan31, 2));
    }

    @Test
    void cronFollowsItsGrid() {
        Instant at = Instant.parse("2026-11-21T10:07:00Z");
        assertEquals(List.of(Instant.parse("2026-11-21T10:15:00Z"), Instant.parse("2026-11-21T10:30:00Z"),
                Instant.parse("2026-11-21T10:45:00Z"), Instant.parse("2026-11-21T11:00:00Z")),
                RepeatPreview.upcoming(RepeatParser.parse("CRON */15 * * * *"), at, at, at, 4));
    }

    @Test
    void stopsAtTheEndOfTime() {
        Instant from = Instant.parse("7000-01-01T00:00:00Z");
        Repeat millennia = RepeatParser.parse("SCHEDULED, +1000 YEARS");
        assertEquals(List.of(Instant.parse("8000-01-01T00:00:00Z"), Instant.parse("9000-01-01T00:00:00Z")),
                RepeatPreview.upcoming(millennia, from, from, from, 5));
        Instant late = Instant.parse("9500-01-01T00:00:00Z");
        assertThrows(RepeatRangeException.class, () -> RepeatPreview.upcoming(millennia, late, late, late, 5));
    }

    @Test
    void countIsOneToAHundred() {
        assertEquals(RepeatPreview.MAX_COUNT, preview("HOURLY", RepeatPreview.MAX_COUNT).size());
        assertThrows(IllegalArgumentException.class, () -> preview("HOURLY", 0));
        assertThrows(IllegalArgumentException.class, () -> preview("HOURLY", RepeatPreview.MAX_COUNT + 1));
    }

    private static List<Instant> preview(String repeat, int count) {
        return RepeatPreview.upcoming(RepeatParser.parse(repeat), SCHEDULED, STARTED, FINISHED, count);
    }
}
