package io.jobfoundry.jobs.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.CapturedLog;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

public class WatchBackoffTest {

    /** FIRST doubling up to MAX: the bound of each wait in a streak of failures. */
    public static final List<Duration> BOUNDS = List.of(50, 100, 200, 400, 800, 1600, 2000, 2000).stream()
            .map(Duration::ofMillis).toList();

    private static final RuntimeException REFUSED = new RuntimeException("too many watches");

    private CapturedLog log;

    @BeforeEach
    void capture() {
        log = CapturedLog.of(WatchBackoff.class);
    }

    @AfterEach
    void release() {
        log.close();
    }

    /** Asserts that each wait lies within its bound, and answers whether they were not all the bound. */
    public static boolean withinBounds(List<Duration> waits) {
        assertEquals(BOUNDS.size(), waits.size());
        for (int i = 0; i < waits.size(); i++) {
            Duration wait = waits.get(i);
            assertTrue(!wait.isNegative() && wait.compareTo(BOUNDS.get(i)) <= 0,
                    "wait " + (i + 1) + " is " + wait + ", beyond " + BOUNDS.get(i) + ": " + waits);
        }
        return !waits.equals(BOUNDS);
    }

    @Test
    void failuresInARowDrawWaitsBelowADoublingBoundAndAFiredWatchStartsItOver() {
        WatchBackoff backoff = WatchBackoff.reported("test");
        List<Duration> waits = new CopyOnWriteArrayList<>();
        for (int i = 0; i < BOUNDS.size(); i++) {
            waits.add(backoff.failed(REFUSED));
        }
        backoff.fired();

        // Eight draws that all hit their bound exactly have no real chance: the waits are jittered.
        assertTrue(withinBounds(waits), "not jittered: " + waits);
        assertTrue(backoff.failed(REFUSED).compareTo(WatchBackoff.FIRST) <= 0);
        assertTrue(backoff.failed(REFUSED).compareTo(WatchBackoff.FIRST.multipliedBy(2)) <= 0);
    }

    @Test
    void aStreakOfFailuresIsOneWarningAndItsEndOneInfoLine() {
        WatchBackoff backoff = WatchBackoff.reported("accepts of [push]");
        for (int i = 0; i < 5; i++) {
            backoff.failed(REFUSED);
        }
        assertEquals(1, log.atLeast(Level.WARNING).size(), "one warning for the streak, not one per failure");
        assertTrue(log.atLeast(Level.WARNING).get(0).getMessage().contains("accepts of [push]"));
        assertEquals(REFUSED, log.atLeast(Level.WARNING).get(0).getThrown());

        backoff.fired();
        backoff.fired();
        assertEquals(2, log.atLeast(Level.INFO).size(), "the streak's end, once: " + log.atLeast(Level.INFO));

        backoff.failed(REFUSED);
        assertEquals(2, log.atLeast(Level.WARNING).size(), "a new streak warns again");
    }

    @Test
    void aPerJobWaiterReportsItsStreakBelowInfo() {
        WatchBackoff backoff = WatchBackoff.quiet("events of push/a");
        backoff.failed(REFUSED);
        backoff.failed(REFUSED);
        backoff.fired();

        assertEquals(List.of(), log.atLeast(Level.INFO));
        assertEquals(2, log.all().size(), "its start and its end, at DEBUG");
    }
}
