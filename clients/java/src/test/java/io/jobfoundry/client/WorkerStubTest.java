package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The worker against a stub service whose answers and timing the test controls, so that batching and
 * halts happen exactly when the test needs them to. {@code WorkerIT} shows the same against the real service.
 */
class WorkerStubTest {

    static final String TYPE = "{\"type\":\"t\",\"activityTimeout\":0.3,\"maxAttempts\":25}";

    @Test
    void finishesReadyTogetherGoInOneBatchAndAcceptsAskForEveryFreeSlot() throws Exception {
        // Job a finishes alone; the service holds that finish until the four others are done, so their finishes
        // are all ready when the next request can go.
        CountDownLatch firstFinishArrived = new CountDownLatch(1);
        CountDownLatch othersDone = new CountDownLatch(4);
        AtomicInteger accepts = new AtomicInteger();
        try (StubService stub = new StubService(r -> {
            if (r.path().endsWith("/finish") && firstFinishArrived.getCount() == 1) {
                firstFinishArrived.countDown();
                othersDone.await(5, TimeUnit.SECONDS);
                awaitTrue(WorkerStubTest::handlerThreadsIdle, Duration.ofSeconds(5));
            }
            return switch (r.path()) {
                case "/v1/types/t" -> StubService.Reply.json(200, TYPE);
                case "/v1/accept" -> accepts.incrementAndGet() == 1
                        ? StubService.Reply.json(200, leased("a", "b", "c", "d", "e")) : idle();
                case "/v1/finish", "/v1/heartbeat" -> StubService.Reply.json(200, results(r.body(), Set.of()));
                default -> StubService.Reply.json(200, StubService.job("t", "x", "running"));
            };
        })) {
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()), ctx -> {
                if (!ctx.job().id().equals("a")) {
                    firstFinishArrived.await();
                    othersDone.countDown();
                }
                return null;
            }, "t").concurrency(5).acceptWait(Duration.ofMillis(100)).build().start();
            awaitTrue(() -> worker.stats().succeeded() == 5, Duration.ofSeconds(10));
            assertTrue(worker.shutdown(Duration.ofSeconds(5)));

            JsonNode firstAccept = Json.MAPPER.readTree(stub.requests("/v1/accept").get(0).body());
            assertEquals(5, firstAccept.get("max").asInt(), "the first accept asks for every free slot");
            assertEquals(1, stub.requests("/v1/jobs/t/a/finish").size());
            List<StubService.Request> batches = stub.requests("/v1/finish");
            assertEquals(1, batches.size(), "the four ready finishes went in one request");
            assertEquals(4, Json.MAPPER.readTree(batches.get(0).body()).get("jobs").size());
            WorkerStats stats = worker.stats();
            assertEquals(1, stats.finishCalls());
            assertEquals(1, stats.finishBatches());
            assertEquals(4, stats.largestFinishBatch());
            assertEquals(5, stats.largestAccept());
        }
    }

    @Test
    void aHaltInABatchHeartbeatInterruptsThatHandlerOnlyAndItIsNeverFinished() throws Exception {
        AtomicInteger accepts = new AtomicInteger();
        CountDownLatch bStarted = new CountDownLatch(1);
        AtomicBoolean bInterrupted = new AtomicBoolean();
        CountDownLatch bStopped = new CountDownLatch(1);
        try (StubService stub = new StubService(r -> switch (r.path()) {
            case "/v1/types/t" -> StubService.Reply.json(200, TYPE);
            case "/v1/accept" -> accepts.incrementAndGet() == 1 ? StubService.Reply.json(200, leased("a", "b")) : idle();
            // The halt comes once b's handler runs, to show it stop.
            case "/v1/heartbeat" -> StubService.Reply.json(200, results(r.body(),
                    bStarted.getCount() == 0 ? Set.of("b") : Set.of()));
            case "/v1/finish" -> StubService.Reply.json(200, results(r.body(), Set.of()));
            case "/v1/jobs/t/b/heartbeat" -> bStarted.getCount() > 0
                    ? StubService.Reply.json(200, StubService.job("t", "b", "running"))
                    : StubService.Reply.problem(409, "{\"type\":\"tag:jobfoundry.io,2026:problem/halt\","
                    + "\"status\":409,\"reason\":\"cancelled\"}");
            default -> StubService.Reply.json(200, StubService.job("t", "x", "finished"));
        })) {
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()), ctx -> {
                if (ctx.job().id().equals("b")) {
                    bStarted.countDown();
                    try {
                        Thread.sleep(10_000);
                    } catch (InterruptedException e) {
                        bInterrupted.set(true);
                    } finally {
                        bStopped.countDown();
                    }
                    return "returned after the halt";
                }
                bStopped.await(); // "a" keeps running until "b" was halted, so that they beat together
                return null;
            }, "t").concurrency(2).acceptWait(Duration.ofMillis(100)).build().start();
            assertTrue(bStopped.await(5, TimeUnit.SECONDS), "the halted handler stopped");
            awaitTrue(() -> worker.stats().running() == 0, Duration.ofSeconds(5));
            worker.shutdown(Duration.ofSeconds(5));

            assertTrue(bInterrupted.get(), "the handler of b was interrupted");
            assertFalse(stub.requests.stream().anyMatch(r -> r.path().endsWith("/b/finish")
                    || (r.path().equals("/v1/finish") && r.body().contains("\"b\""))), "b was never finished");
            assertTrue(stub.requests.stream().anyMatch(r -> r.path().endsWith("/a/finish")), "a was finished");
            WorkerStats stats = worker.stats();
            assertEquals(1, stats.halted());
            assertEquals(1, stats.succeeded());
            assertTrue(stats.heartbeatBatches() >= 1, "jobs accepted together beat together: " + stats);
        }
    }

    @Test
    void aServiceWithoutBatchCallsGetsSingleCallsAndLosesNothing() throws Exception {
        AtomicInteger accepts = new AtomicInteger();
        String unknownPath = "{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404}";
        try (StubService stub = new StubService(r -> switch (r.path()) {
            case "/v1/types/t" -> StubService.Reply.json(200, TYPE);
            case "/v1/accept" -> accepts.incrementAndGet() == 1 ? StubService.Reply.json(200, leased("a", "b", "c")) : idle();
            case "/v1/finish", "/v1/heartbeat" -> StubService.Reply.problem(404, unknownPath);
            default -> StubService.Reply.json(200, StubService.job("t", "x", "running"));
        })) {
            CountDownLatch together = new CountDownLatch(3);
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()), ctx -> {
                together.countDown();
                together.await(5, TimeUnit.SECONDS);
                // Running until the batch beat was tried and this job's own beat came, not for a fixed 250 ms
                // (a beat is due every 0.1 s): a heartbeat thread descheduled that long on a busy machine let
                // the jobs end before any beat, and the counts below failed.
                String ownBeat = "/v1/jobs/t/" + ctx.job().id() + "/heartbeat";
                awaitTrue(() -> !stub.requests("/v1/heartbeat").isEmpty() && !stub.requests(ownBeat).isEmpty(),
                        Duration.ofSeconds(10));
                return null;
            }, "t").concurrency(3).acceptWait(Duration.ofMillis(100)).build().start();
            awaitTrue(() -> worker.stats().succeeded() == 3, Duration.ofSeconds(10));
            worker.shutdown(Duration.ofSeconds(5));

            WorkerStats stats = worker.stats();
            assertEquals(0, stats.lostFinishes());
            assertEquals(0, stats.finishBatches());
            assertEquals(0, stats.heartbeatBatches());
            assertEquals(3, stub.requests.stream().filter(r -> r.path().matches("/v1/jobs/t/[abc]/finish")).count());
            assertTrue(stub.requests("/v1/finish").size() <= 1, "the batch call was tried once, then no more");
            assertEquals(1, stub.requests("/v1/heartbeat").size(), "jobs accepted together tried one batch beat, then no more");
            assertTrue(stats.heartbeatCalls() >= 3, "heartbeats went one by one: " + stats);
        }
    }

    /**
     * A restart or a deploy outlasts a call's retries: the finish is kept, the job's heartbeats go on, and it is
     * sent when the service is back, rather than the job running again after its activity timeout.
     */
    @Test
    void aFinishTheServiceCannotTakeForLongerThanTheRetriesIsKeptAndSentAgain() throws Exception {
        AtomicBoolean down = new AtomicBoolean(true);
        Duration again = Finishes.lostFinishAgain;
        Finishes.lostFinishAgain = Duration.ofMillis(200);
        try (StubService stub = new StubService(oneJobFinishesUnavailableWhile(down::get))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url())
                    .retryPolicy(new RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(10))).build();
            Worker worker = Worker.builder(client, ctx -> Map.of("done", true), "t")
                    .acceptWait(Duration.ofMillis(100)).build().start();
            awaitTrue(() -> stub.requests("/v1/jobs/t/a/finish").size() >= 6, Duration.ofSeconds(10));
            WorkerStats kept = worker.stats();
            assertEquals(List.of(0L, 0L, 1L), List.of((long) kept.succeeded(), (long) kept.lostFinishes(),
                    (long) kept.running()), kept.toString());
            int beats = stub.requests("/v1/jobs/t/a/heartbeat").size();
            awaitTrue(() -> stub.requests("/v1/jobs/t/a/heartbeat").size() > beats, Duration.ofSeconds(10));
            down.set(false);
            awaitTrue(() -> worker.stats().succeeded() == 1, Duration.ofSeconds(10));
            assertTrue(worker.shutdown(Duration.ofSeconds(5)));
            assertEquals(0, worker.stats().lostFinishes());
        } finally {
            Finishes.lostFinishAgain = again;
        }
    }

    @Test
    void aFinishStillKeptAtTheShutdownsDeadlineIsGivenUp() throws Exception {
        try (StubService stub = new StubService(oneJobFinishesUnavailableWhile(() -> true))) {
            JobfoundryClient client = JobfoundryClient.builder(stub.url())
                    .retryPolicy(new RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(10))).build();
            Worker worker = Worker.builder(client, ctx -> null, "t").acceptWait(Duration.ofMillis(100)).build().start();
            awaitTrue(() -> !stub.requests("/v1/jobs/t/a/finish").isEmpty(), Duration.ofSeconds(10));
            long started = System.nanoTime();
            worker.shutdown(Duration.ofSeconds(1));
            assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(8), "the shutdown does not wait for the service");
            assertEquals(1, worker.stats().lostFinishes(), worker.stats().toString());
            assertEquals(0, worker.stats().running(), worker.stats().toString());
        }
    }

    @Test
    void theAcceptThreadOutlivesAnAnswerItCannotRead() throws Exception {
        AtomicInteger accepts = new AtomicInteger();
        CountDownLatch handled = new CountDownLatch(1);
        try (StubService stub = new StubService(r -> switch (r.path()) {
            case "/v1/types/t" -> StubService.Reply.json(200, TYPE);
            case "/v1/accept" -> switch (accepts.incrementAndGet()) {
                // A proxy or a newer service garbling one answer: a time the client cannot parse.
                case 1 -> StubService.Reply.json(200, leased("a").replace("2026-11-21T10:00:00Z", "yesterday"));
                case 2 -> StubService.Reply.json(200, leased("b"));
                default -> idle();
            };
            case "/v1/finish", "/v1/heartbeat" -> StubService.Reply.json(200, results(r.body(), Set.of()));
            default -> StubService.Reply.json(200, StubService.job("t", "x", "finished"));
        })) {
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()), ctx -> {
                handled.countDown();
                return null;
            }, "t").acceptWait(Duration.ofMillis(100)).build().start();
            assertTrue(handled.await(10, TimeUnit.SECONDS), "the job of the next accept was handled");
            worker.shutdown(Duration.ofSeconds(5));
        }
    }

    @Test
    void aHaltFoundByTheFinishIsLogged() throws Exception {
        AtomicInteger accepts = new AtomicInteger();
        try (StubService stub = new StubService(r -> switch (r.path()) {
            case "/v1/types/t" -> StubService.Reply.json(200, TYPE);
            case "/v1/accept" -> accepts.incrementAndGet() == 1 ? StubService.Reply.json(200, leased("a")) : idle();
            // Cancelled while its handler ran, between two heartbeats: the finish is the first to hear of it.
            case "/v1/jobs/t/a/finish" -> StubService.Reply.problem(409, "{\"type\":\"tag:jobfoundry.io,2026:problem/halt\","
                    + "\"status\":409,\"reason\":\"cancelled\"}");
            default -> StubService.Reply.json(200, StubService.job("t", "a", "running"));
        }); Logs logs = new Logs()) {
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()), ctx -> null, "t")
                    .acceptWait(Duration.ofMillis(100)).build().start();
            awaitTrue(() -> worker.stats().halted() == 1, Duration.ofSeconds(10));
            worker.shutdown(Duration.ofSeconds(5));
            assertTrue(logs.records.stream().anyMatch(r -> r.getLevel() == java.util.logging.Level.INFO
                    && logs.text(r).contains("t/a") && logs.text(r).contains("cancelled")), logs.all());
        }
    }

    @Test
    void aJobAcceptedAgainHaltsItsOlderRunWhoseLeaseNeverGoesOutAgain() throws Exception {
        // The run of "a" under L-a lost its lease (an activity timeout the worker did not expect: an operator
        // shortened it), and the service hands "a" to the same worker again, under L-a2.
        AtomicInteger accepts = new AtomicInteger();
        CountDownLatch firstRunStarted = new CountDownLatch(1);
        CountDownLatch firstRunInterrupted = new CountDownLatch(1);
        CountDownLatch firstRunOver = new CountDownLatch(1);
        AtomicBoolean reaccepted = new AtomicBoolean();
        try (StubService stub = new StubService(r -> switch (r.path()) {
            case "/v1/types/t" -> StubService.Reply.json(200, TYPE);
            case "/v1/accept" -> switch (accepts.incrementAndGet()) {
                case 1 -> StubService.Reply.json(200, leased("a", "b"));
                case 2 -> {
                    firstRunStarted.await(5, TimeUnit.SECONDS);
                    reaccepted.set(true);
                    yield StubService.Reply.json(200, leased("a").replace("L-a", "L-a2"));
                }
                default -> idle();
            };
            // As the service: a batch naming a job twice is refused whole; only the newest lease is valid.
            case "/v1/heartbeat", "/v1/finish" -> {
                JsonNode items = Json.MAPPER.readTree(r.body()).get("jobs");
                if (items.findValuesAsText("id").stream().distinct().count() < items.size()) {
                    yield StubService.Reply.problem(400, "{\"type\":\"tag:jobfoundry.io,2026:problem/invalid-request\","
                            + "\"status\":400,\"detail\":\"each job at most once per batch\"}");
                }
                yield StubService.Reply.json(200, results(r.body(), reaccepted.get() ? Set.of("a@L-a") : Set.of()));
            }
            default -> r.body() != null && r.body().contains("\"L-a\"") && reaccepted.get()
                    ? StubService.Reply.problem(409, "{\"type\":\"tag:jobfoundry.io,2026:problem/halt\","
                            + "\"status\":409,\"reason\":\"lease-lost\"}")
                    : StubService.Reply.json(200, StubService.job("t", "x", "running"));
        })) {
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()), ctx -> {
                if (ctx.leasedJob().lease().equals("L-a")) {
                    firstRunStarted.countDown();
                    try {
                        Thread.sleep(10_000);
                    } catch (InterruptedException e) {
                        firstRunInterrupted.countDown();
                    } finally {
                        firstRunOver.countDown();
                    }
                    return java.util.Map.of("run", 1);
                }
                firstRunOver.await(); // both runs and "b" beat together until then
                Thread.sleep(300);
                return java.util.Map.of("run", 2);
            }, "t").concurrency(3).acceptWait(Duration.ofMillis(100)).build().start();
            assertTrue(firstRunInterrupted.await(5, TimeUnit.SECONDS), "the older run's handler was interrupted");
            awaitTrue(() -> worker.stats().succeeded() == 2, Duration.ofSeconds(10));
            assertTrue(worker.shutdown(Duration.ofSeconds(5)));

            for (StubService.Request batch : stub.requests) {
                if (batch.path().equals("/v1/heartbeat") || batch.path().equals("/v1/finish")) {
                    assertFalse(batch.body().contains("\"L-a\"") && batch.body().contains("\"L-a2\""),
                            "one job, one lease per batch: " + batch.body());
                }
            }
            assertFalse(stub.requests.stream().anyMatch(r -> r.path().contains("finish") && r.body().contains("\"L-a\"")),
                    "the older run was never finished");
            WorkerStats stats = worker.stats();
            assertEquals(1, stats.halted(), stats.toString());
            assertEquals(0, stats.running(), stats.toString());
        }
    }

    @Test
    void aRefusedHeartbeatBatchIsSentOneByOneSoThatEachJobHearsItsAnswer() throws Exception {
        AtomicInteger accepts = new AtomicInteger();
        CountDownLatch bInterrupted = new CountDownLatch(1);
        try (StubService stub = new StubService(r -> switch (r.path()) {
            case "/v1/types/t" -> StubService.Reply.json(200, TYPE);
            case "/v1/accept" -> accepts.incrementAndGet() == 1 ? StubService.Reply.json(200, leased("a", "b")) : idle();
            // Whatever the reason (one item's progress over the limit, say), the batch as it is will never do.
            case "/v1/heartbeat" -> StubService.Reply.problem(400, "{\"type\":\"tag:jobfoundry.io,2026:problem/invalid-request\","
                    + "\"status\":400,\"detail\":\"1 invalid item(s) in the batch\",\"errors\":[{\"index\":0,\"detail\":\"x\"}]}");
            case "/v1/jobs/t/b/heartbeat" -> StubService.Reply.problem(409, "{\"type\":\"tag:jobfoundry.io,2026:problem/halt\","
                    + "\"status\":409,\"reason\":\"cancelled\"}");
            case "/v1/finish" -> StubService.Reply.json(200, results(r.body(), Set.of()));
            default -> StubService.Reply.json(200, StubService.job("t", "a", "running"));
        })) {
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()), ctx -> {
                if (ctx.job().id().equals("a")) {
                    bInterrupted.await(8, TimeUnit.SECONDS); // so that a and b beat together all along
                    return null;
                }
                try {
                    Thread.sleep(10_000);
                } catch (InterruptedException e) {
                    bInterrupted.countDown();
                    throw e;
                }
                return null;
            }, "t").concurrency(2).acceptWait(Duration.ofMillis(100)).build().start();
            assertTrue(bInterrupted.await(5, TimeUnit.SECONDS), "b heard its halt");
            awaitTrue(() -> worker.stats().succeeded() == 1, Duration.ofSeconds(10));
            assertTrue(worker.shutdown(Duration.ofSeconds(5)));
            assertEquals(1, worker.stats().halted());
            assertEquals(0, worker.stats().abandoned());
        }
    }

    /** Jackson cannot write it: no getters, no annotations. */
    private static final class Opaque {
        @SuppressWarnings("unused")
        private final int x = 1;
    }

    @Test
    void aResultJacksonCannotWriteFailsItsJobSayingWhyAndTheWorkerGoesOn() throws Exception {
        AtomicInteger accepts = new AtomicInteger();
        CountDownLatch aFinishSent = new CountDownLatch(1);
        try (StubService stub = new StubService(r -> switch (r.path()) {
            case "/v1/types/t" -> StubService.Reply.json(200, TYPE);
            case "/v1/accept" -> switch (accepts.incrementAndGet()) {
                case 1 -> StubService.Reply.json(200, leased("a"));
                case 2 -> {
                    // b only once a's finish went, alone: a finish thread woken a few ms late would otherwise
                    // find both finishes ready and send them in one batch, which the checks below do not read.
                    aFinishSent.await(5, TimeUnit.SECONDS);
                    yield StubService.Reply.json(200, leased("b"));
                }
                default -> idle();
            };
            case "/v1/finish", "/v1/heartbeat" -> StubService.Reply.json(200, results(r.body(), Set.of()));
            case "/v1/jobs/t/a/finish" -> {
                aFinishSent.countDown();
                yield StubService.Reply.json(200, StubService.job("t", "x", "running"));
            }
            default -> StubService.Reply.json(200, StubService.job("t", "x", "running"));
        })) {
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()),
                    ctx -> ctx.job().id().equals("a") ? new Opaque() : java.util.Map.of("ok", true), "t")
                    .acceptWait(Duration.ofMillis(100)).build().start();
            awaitTrue(() -> worker.stats().succeeded() == 1, Duration.ofSeconds(10));
            assertTrue(worker.shutdown(Duration.ofSeconds(5)));

            JsonNode a = Json.MAPPER.readTree(stub.requests("/v1/jobs/t/a/finish").get(0).body());
            assertEquals("failed", a.get("outcome").asText());
            assertTrue(a.get("error").asText().contains(Opaque.class.getName()), a.toString());
            assertFalse(a.has("data"));
            assertEquals(1, worker.stats().failed());
            assertEquals(1, stub.requests("/v1/jobs/t/b/finish").size(), "the next job was finished too");
        }
    }

    @Test
    void progressTheServiceCannotTakeThrowsInTheHandlerAndHeartbeatsGoOn() throws Exception {
        AtomicInteger accepts = new AtomicInteger();
        List<Exception> thrown = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch beatsAfter = new CountDownLatch(3);
        AtomicBoolean tried = new AtomicBoolean();
        try (StubService stub = new StubService(r -> {
            if (tried.get() && r.path().contains("heartbeat")) {
                beatsAfter.countDown();
            }
            return switch (r.path()) {
                case "/v1/types/t" -> StubService.Reply.json(200, TYPE);
                case "/v1/accept" -> accepts.incrementAndGet() == 1 ? StubService.Reply.json(200, leased("a")) : idle();
                case "/v1/finish", "/v1/heartbeat" -> StubService.Reply.json(200, results(r.body(), Set.of()));
                default -> StubService.Reply.json(200, StubService.job("t", "a", "running"));
            };
        })) {
            Worker worker = Worker.builder(JobfoundryClient.create(stub.url()), ctx -> {
                for (Object progress : new Object[] {new Opaque(), List.of("step 1")}) {
                    try {
                        ctx.progress(progress);
                    } catch (JobfoundryException e) {
                        thrown.add(e);
                    }
                }
                tried.set(true);
                assertTrue(beatsAfter.await(5, TimeUnit.SECONDS), "heartbeats went on");
                return null;
            }, "t").acceptWait(Duration.ofMillis(100)).build().start();
            awaitTrue(() -> worker.stats().succeeded() == 1, Duration.ofSeconds(10));
            assertTrue(worker.shutdown(Duration.ofSeconds(5)));

            assertEquals(2, thrown.size(), "each refused in the handler: " + thrown);
            assertTrue(thrown.get(0).getMessage().contains(Opaque.class.getName()), thrown.get(0).getMessage());
            assertTrue(thrown.get(1).getMessage().contains("JSON object"), thrown.get(1).getMessage());
        }
    }

    /** A service that hands out job {@code a} of type {@code t} once, and answers its finishes 503 while {@code down}. */
    private static StubService.Handler oneJobFinishesUnavailableWhile(java.util.function.BooleanSupplier down) {
        AtomicInteger accepts = new AtomicInteger();
        String unavailable = "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503}";
        return r -> {
            if (r.path().equals("/v1/types/t")) {
                return StubService.Reply.json(200, TYPE);
            }
            if (r.path().equals("/v1/accept")) {
                return accepts.incrementAndGet() == 1 ? StubService.Reply.json(200, leased("a")) : idle();
            }
            if (down.getAsBoolean() && r.path().endsWith("/finish")) {
                return StubService.Reply.problem(503, unavailable);
            }
            return StubService.Reply.json(200, StubService.job("t", "a", "running"));
        };
    }

    static StubService.Reply idle() throws InterruptedException {
        Thread.sleep(50);
        return new StubService.Reply(204, null, null, java.util.Map.of());
    }

    static String leased(String... ids) {
        StringBuilder out = new StringBuilder("[");
        for (String id : ids) {
            String job = StubService.job("t", id, "running");
            out.append(out.length() > 1 ? "," : "").append(job, 0, job.length() - 1)
                    .append(",\"lease\":\"L-").append(id).append("\"}");
        }
        return out.append("]").toString();
    }

    /** A batch answer: 200 for each item, 409 cancelled for the ids named, 409 lease-lost for the id@lease named. */
    static String results(String body, Set<String> halted) throws Exception {
        StringBuilder out = new StringBuilder("{\"results\":[");
        for (JsonNode item : Json.MAPPER.readTree(body).get("jobs")) {
            String id = item.get("id").asText();
            out.append(out.charAt(out.length() - 1) == '[' ? "" : ",");
            out.append(halted.contains(id) ? "{\"status\":409,\"reason\":\"cancelled\"}"
                    : halted.contains(id + "@" + item.get("lease").asText()) ? "{\"status\":409,\"reason\":\"lease-lost\"}"
                    : "{\"status\":200,\"job\":" + StubService.job("t", id, "running") + "}");
        }
        return out.append("]}").toString();
    }

    /** Every handler thread waits for work: none is between its handler's return and queueing the finish. */
    private static boolean handlerThreadsIdle() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("jobfoundry-") && t.getName().contains("-handler-"))
                .allMatch(t -> t.getState() == Thread.State.WAITING);
    }

    static void awaitTrue(java.util.function.BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not met within " + timeout);
            }
            Thread.sleep(20);
        }
    }


    /** What the client logs (System.Logger goes to java.util.logging here), while it is open. */
    static final class Logs extends java.util.logging.Handler implements AutoCloseable {
        final List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final java.util.logging.Logger logger = java.util.logging.Logger.getLogger("io.jobfoundry.client");

        Logs() {
            logger.addHandler(this);
        }

        String text(java.util.logging.LogRecord r) {
            return new java.util.logging.SimpleFormatter().formatMessage(r);
        }

        String all() {
            return records.stream().map(r -> r.getLevel() + " " + text(r)).toList().toString();
        }

        @Override
        public void publish(java.util.logging.LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }
}
