package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TypeTimeoutsTest {

    @Test
    void aChangedTimeoutIsPickedUpWithoutHoldingUpTheCaller() throws Exception {
        AtomicReference<String> timeout = new AtomicReference<>("0.3");
        AtomicReference<Duration> delay = new AtomicReference<>(Duration.ZERO);
        try (StubService stub = new StubService(r -> {
            Thread.sleep(delay.get().toMillis());
            return StubService.Reply.json(200, "{\"type\":\"t\",\"activityTimeout\":" + timeout.get() + ",\"maxAttempts\":25}");
        })) {
            TypeTimeouts timeouts = new TypeTimeouts(JobfoundryClient.create(stub.url()), Duration.ofMillis(50));
            assertEquals(Duration.ofMillis(300), timeouts.of("t"));

            timeout.set("2");
            delay.set(Duration.ofSeconds(1)); // a slow service
            Thread.sleep(60);
            long start = System.nanoTime();
            assertEquals(Duration.ofMillis(300), timeouts.of("t"), "the known value while it is read again");
            assertTrue(System.nanoTime() - start < Duration.ofMillis(500).toNanos(), "the caller did not wait");
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
