package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WatchBackoffTest {

    @Test
    void failuresInARowDoubleTheWaitUpToItsBoundAndAFiredWatchStartsItOver() {
        WatchBackoff backoff = new WatchBackoff();
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waits.add(backoff.failed().toMillis());
        }
        backoff.fired();

        assertEquals(List.of(50L, 100L, 200L, 400L, 800L, 1600L, 2000L, 2000L), waits);
        assertEquals(Duration.ofMillis(50), backoff.failed());
        assertEquals(Duration.ofMillis(100), backoff.failed());
    }
}
