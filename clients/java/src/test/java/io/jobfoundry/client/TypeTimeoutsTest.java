package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TypeTimeoutsTest {

    @Test
    void aChangedTimeoutIsPickedUpWithoutHoldingUpTheCaller() throws Exception {
        AtomicReference<String> timeout = new AtomicReference<>("0.3");
        AtomicBoolean slow = new AtomicBoolean();
        CountDownLatch slowAnswer = new CountDownLatch(1);
        try (StubService stub = new StubService(r -> {
            if (slow.get()) {
                slowAnswer.await(10, TimeUnit.SECONDS);
            }
            return StubService.Reply.json(200, "{\"type\":\"t\",\"activityTimeout\":" + timeout.get() + ",\"maxAttempts\":25}");
        })) {
            TypeTimeouts timeouts = new TypeTimeouts(JobfoundryClient.create(stub.url()), Duration.ofMillis(50));
            assertEquals(Duration.ofMillis(300), timeouts.of("t"));

            timeout.set("2");
            // A slow service: held until the caller has been timed, not for a fixed second, so that a caller that
            // waited would take 10 s and one that did not is well under the bound, however busy the machine.
            slow.set(true);
            Thread.sleep(60);
            long start = System.nanoTime();
            assertEquals(Duration.ofMillis(300), timeouts.of("t"), "the known value while it is read again");
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos(), "the caller did not wait");
            slowAnswer.countDown();
            WorkerStubTest.awaitTrue(() -> timeouts.of("t").equals(Duration.ofSeconds(2)), Duration.ofSeconds(10));
        }
    }

    @Test
    void anUnknownTimeoutIsTakenAsTheShortestUntilTheServiceAnswers() throws Exception {
        try (StubService stub = new StubService(r -> StubService.Reply.problem(400, "{\"detail\":\"no\"}"))) {
            TypeTimeouts timeouts = new TypeTimeouts(JobfoundryClient.create(stub.url()));
            assertEquals(TypeTimeouts.SHORTEST, timeouts.of("t"));
        }
    }
}
