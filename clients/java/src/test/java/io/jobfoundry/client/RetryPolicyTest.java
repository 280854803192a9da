package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    @Test
    void delaysDoubleWithEqualJitterAndStopAtTheCap() {
        RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(100), Duration.ofMillis(1000));
        long[] full = {100, 200, 400, 800, 1000, 1000, 1000};
        for (int attempt = 1; attempt <= full.length; attempt++) {
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < 200; i++) {
                long ms = policy.delay(attempt, null).toMillis();
                assertTrue(ms >= full[attempt - 1] / 2 && ms <= full[attempt - 1],
                        "attempt " + attempt + ": " + ms + " ms outside [" + full[attempt - 1] / 2 + ", " + full[attempt - 1] + "]");
                seen.add(ms);
            }
            assertTrue(seen.size() > 10, "delays are jittered, saw only " + seen);
        }
    }

    @Test
    void aHugeAttemptNumberStaysAtTheCap() {
        RetryPolicy policy = new RetryPolicy(100, Duration.ofMillis(100), Duration.ofSeconds(5));
        long ms = policy.delay(80, null).toMillis();
        assertTrue(ms >= 2500 && ms <= 5000, ms + " ms");
    }

    @Test
    void retryAfterRaisesTheDelayUpToTheCap() {
        RetryPolicy policy = new RetryPolicy(5, Duration.ofMillis(10), Duration.ofMillis(400));
        assertEquals(400, policy.delay(1, Duration.ofSeconds(1)).toMillis());
        RetryPolicy patient = new RetryPolicy(5, Duration.ofMillis(10), Duration.ofSeconds(5));
        assertEquals(1000, patient.delay(1, Duration.ofSeconds(1)).toMillis());
        assertTrue(patient.delay(1, Duration.ZERO).toMillis() <= 10);
    }

    @Test
    void nonsenseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(3, Duration.ofSeconds(2), Duration.ofSeconds(1)));
    }
}
