package io.jobfoundry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DaemonThreadsTest {

    /** A blocking accept answered early cancels its timeout: it must not stay queued for the wait. */
    @Test
    void aCancelledTimeoutLeavesTheTimerAtOnceAndTheOthersStillFire() throws Exception {
        ScheduledThreadPoolExecutor timer = DaemonThreads.timeouts("test-timeouts");
        try {
            List<ScheduledFuture<?>> answeredEarly = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                answeredEarly.add(timer.schedule(() -> { }, 30, TimeUnit.SECONDS));
            }
            ScheduledFuture<?> stillWaiting = timer.schedule(() -> { }, 60, TimeUnit.SECONDS);
            answeredEarly.forEach(timeout -> timeout.cancel(false));
            assertEquals(1, timer.getQueue().size(), "cancelled timeouts stayed queued");
            assertTrue(timer.getQueue().contains(stillWaiting));

            CountDownLatch fired = new CountDownLatch(1);
            timer.schedule(fired::countDown, 10, TimeUnit.MILLISECONDS);
            assertTrue(fired.await(10, TimeUnit.SECONDS), "a timeout that was not cancelled did not fire");
        } finally {
            timer.shutdownNow();
        }
    }
}
