package io.jobfoundry.client;

import static io.jobfoundry.client.WorkerStubTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** A worker whose accepts the service refuses: a token not (or no longer) configured, a role or type it lacks. */
class AcceptRefusalTest {

    private static final String UNAUTHORIZED = "{\"type\":\"tag:jobfoundry.io,2026:problem/unauthorized\","
            + "\"status\":401,\"detail\":\"a valid token is required\"}";

    @Test
    void aRefusalIsAnErrorSaidOnceAskedAgainSlowlyAndItsEndIsSaidToo() throws Exception {
        AtomicBoolean tokenConfigured = new AtomicBoolean();
        AtomicInteger accepts = new AtomicInteger();
        AtomicBoolean served = new AtomicBoolean();
        CountDownLatch handled = new CountDownLatch(1);
        try (StubService stub = new StubService(r -> switch (r.path()) {
            case "/v1/types/t" -> StubService.Reply.json(200, WorkerStubTest.TYPE);
            case "/v1/accept" -> {
                accepts.incrementAndGet();
                if (!tokenConfigured.get()) {
                    yield StubService.Reply.problem(401, UNAUTHORIZED);
                }
                yield served.getAndSet(true) ? WorkerStubTest.idle()
                        : StubService.Reply.json(200, WorkerStubTest.leased("a"));
            }
            case "/v1/finish", "/v1/heartbeat" ->
                    StubService.Reply.json(200, WorkerStubTest.results(r.body(), Set.of()));
            default -> StubService.Reply.json(200, StubService.job("t", "a", "finished"));
        }); WorkerStubTest.Logs logs = new WorkerStubTest.Logs()) {
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()), ctx -> {
                handled.countDown();
                return null;
            }, "t").acceptWait(Duration.ofMillis(100)).refusedAgain(Duration.ofMillis(200)).build().start();
            awaitTrue(() -> accepts.get() >= 4, Duration.ofSeconds(10));

            assertEquals(1, logs.records.stream().filter(r -> r.getLevel() == Level.SEVERE).count(), logs.all());
            assertTrue(logs.records.stream().anyMatch(r -> r.getLevel() == Level.SEVERE
                    && logs.text(r).contains("a valid token is required") && logs.text(r).contains("every 0.2 s")),
                    logs.all());
            assertTrue(logs.records.stream().noneMatch(r -> r.getLevel() == Level.WARNING),
                    "no warning per try: " + logs.all());

            tokenConfigured.set(true);
            assertTrue(handled.await(10, TimeUnit.SECONDS), "accepts work again once the service takes the token");
            awaitTrue(() -> logs.records.stream().anyMatch(r -> r.getLevel() == Level.INFO
                    && logs.text(r).startsWith("accepts are answered again")), Duration.ofSeconds(5));
            worker.shutdown(Duration.ofSeconds(5));
        }
    }

    @Test
    void aShutdownDoesNotWaitOutThePauseAfterARefusal() throws Exception {
        AtomicInteger accepts = new AtomicInteger();
        try (StubService stub = new StubService(r -> {
            accepts.incrementAndGet();
            return StubService.Reply.problem(403,
                    "{\"type\":\"tag:jobfoundry.io,2026:problem/forbidden\",\"status\":403}");
        })) {
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()), ctx -> null, "t").build().start();
            awaitTrue(() -> accepts.get() == 1, Duration.ofSeconds(10));
            long start = System.nanoTime();
            assertTrue(worker.shutdown(Duration.ofSeconds(5)));
            assertTrue(System.nanoTime() - start < AcceptFailures.REFUSED_AGAIN.toNanos() / 2,
                    "the shutdown cut the 30 s pause short");
            assertEquals(1, accepts.get());
        }
    }
}
