package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.CapturedLog;
import io.jobfoundry.jobs.background.DueWaker;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Push delivery against a real HTTP target on loopback, started by the test (a Vert.x server,
 * so that held calls cost it no thread): every answer the contract names, the signature, the
 * allow-list, a cancel during a call, the concurrency bound and a recurring push job.
 */
@QuarkusTest
@TestProfile(PushDeliveryTest.Pushing.class)
class PushDeliveryTest {

    static final String SECRET = "s3cret-push-key";
    /** Above the 64 KiB a job's data may hold, so that an answer can be read and still be too large as data. */
    static final int MAX_ANSWER = 80_000;
    /** Generous: events on other threads, on a machine shared with builds. */
    static final long WAIT_SECONDS = 30;

    /** Pushes allowed to the loopback target, signed, answers read up to {@link #MAX_ANSWER} bytes. */
    public static class Pushing implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("jobfoundry.push.allowed-targets", "http://127.0.0.1",
                    "jobfoundry.push.signing-secret", SECRET,
                    "jobfoundry.push.max-answer-bytes", Integer.toString(MAX_ANSWER));
        }
    }

    /** A call the target received. */
    record Received(MultiMap headers, String body, HttpServerRequest request) {
    }

    static Vertx vertx;
    static HttpServer server;
    static final Map<String, Handler<Received>> routes = new ConcurrentHashMap<>();
    static final Map<String, BlockingQueue<Received>> received = new ConcurrentHashMap<>();

    @Inject
    TestClock clock;

    @Inject
    DueWaker dueWaker;

    @BeforeAll
    static void startTarget() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
            Received call = new Received(request.headers(), body.toString(StandardCharsets.UTF_8), request);
            received.computeIfAbsent(request.path(), p -> new LinkedBlockingQueue<>()).add(call);
            routes.getOrDefault(request.path(), c -> c.request().response().setStatusCode(404).end()).handle(call);
        })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * Push turned off for every type a test made: the store outlives this application, and the
     * next one (without this allow-list) must not take their jobs.
     */
    @AfterEach
    void stopPushing() {
        for (String type : given().get("/v1/types").then().statusCode(200).extract().jsonPath()
                .<String>getList("types.findAll { it.push != null }.type")) {
            json("{\"push\":null}").put("/v1/types/{type}", type).then().statusCode(200);
        }
    }

    @AfterAll
    static void stopTarget() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    static String url(String path) {
        return "http://127.0.0.1:" + server.actualPort() + path;
    }

    static Received next(String path) throws InterruptedException {
        Received call = received.computeIfAbsent(path, p -> new LinkedBlockingQueue<>()).poll(WAIT_SECONDS,
                TimeUnit.SECONDS);
        assertNotNull(call, "no push reached " + path);
        return call;
    }

    /** The calls that reach {@code path}, held unanswered until the test answers them. */
    static List<Received> held(String path) {
        List<Received> held = new CopyOnWriteArrayList<>();
        routes.put(path, held::add);
        return held;
    }

    static void answer(Received call, int status, String body) {
        call.request().response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body);
    }

    /** Makes {@code type} push to {@code path} and answers the type as configured. */
    static JsonPath pushTo(String type, String path, String more) {
        return json("{\"maxAttempts\":" + more + ",\"backoff\":{\"base\":0,\"max\":0},\"push\":{\"url\":\"" + url(path)
                + "\",\"timeout\":5}}").put("/v1/types/{type}", type).then().statusCode(200).extract().jsonPath();
    }

    static JsonPath finished(String type, String id) {
        return given().get("/v1/jobs/{type}/{id}?waitFor=finished&timeout=" + WAIT_SECONDS * 1000, type, id).then()
                .statusCode(200).body("state", equalTo("finished")).extract().jsonPath();
    }

    @Test
    void aSuccessfulCallFinishesTheJobWithTheAnswersDataAndIsSignedAsDocumented() throws Exception {
        String type = Api.type("push-ok");
        String path = "/" + type;
        routes.put(path, call -> answer(call, 200, "{\"sent\":true}"));
        JsonPath configured = pushTo(type, path, "3");
        assertEquals(url(path), configured.getString("push.url"));
        assertEquals(5, configured.getInt("push.timeout"));
        assertEquals(10, configured.getInt("push.concurrency"));
        Api.put(type, "a", "{\"data\":{\"to\":\"x@example.com\"},\"scheduledAt\":\"2020-01-01T00:00:00Z\"}").statusCode(201);

        Received call = next(path);
        JsonPath job = finished(type, "a");
        assertEquals("succeeded", job.getString("result"));
        assertEquals(Map.of("sent", true), job.getMap("data"));

        assertEquals(type, call.headers().get("Jobfoundry-Type"));
        assertEquals("a", call.headers().get("Jobfoundry-Id"));
        assertEquals("0", call.headers().get("Jobfoundry-Attempt"));
        JsonPath body = JsonPath.from(call.body());
        assertEquals(type, body.getString("type"));
        assertEquals("a", body.getString("id"));
        assertEquals("x@example.com", body.getString("data.to"));
        assertEquals(0, body.getInt("attempt"));
        assertEquals("2020-01-01T00:00:00Z", body.getString("scheduledAt"));

        // The receiver's check: the HMAC of "<t>.<body>" under the shared secret, and a fresh t.
        Matcher signature = Pattern.compile("t=(\\d+),v1=([0-9a-f]{64})")
                .matcher(call.headers().get("Jobfoundry-Signature"));
        assertTrue(signature.matches(), call.headers().get("Jobfoundry-Signature"));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = HexFormat.of().formatHex(
                mac.doFinal((signature.group(1) + "." + call.body()).getBytes(StandardCharsets.UTF_8)));
        assertEquals(expected, signature.group(2));
        assertTrue(Math.abs(Long.parseLong(signature.group(1)) - clock.instant().getEpochSecond()) < 300);

        String shown = given().get("/v1/types/{type}", type).then().statusCode(200).extract().asString();
        assertFalse(shown.contains(SECRET), "the secret is never shown");
        assertTrue(scrape().contains("jobfoundry_push_calls_total{outcome=\"2xx\",type=\"" + type + "\"} 1.0"));
    }

    @Test
    void aFailingStatusIsAFailedAttemptRetriedWithItsLastError() throws Exception {
        String type = Api.type("push-500");
        String path = "/" + type;
        AtomicInteger calls = new AtomicInteger();
        routes.put(path, call -> answer(call, calls.incrementAndGet() == 1 ? 500 : 204, "{\"error\":\"boom\"}"));
        pushTo(type, path, "3");
        Api.put(type, "a", "{}").statusCode(201);

        assertEquals("0", next(path).headers().get("Jobfoundry-Attempt"));
        Received retry = next(path); // the backoff is zero: due again at once
        assertEquals("1", retry.headers().get("Jobfoundry-Attempt"));
        JsonPath job = finished(type, "a");
        assertEquals("succeeded", job.getString("result"));
        assertEquals(2, calls.get());
        // Each push is an attempt in the job's history, as a pulled run's would be.
        assertEquals(List.of("failed", "succeeded"), job.getList("history.outcome"));
        assertEquals("push target answered 500: {\"error\":\"boom\"}", job.getString("history[0].error"));
        assertEquals(List.of("push", "push"), job.getList("history.worker"));
    }

    /**
     * A 2xx says the target did the work: an answer whose object a job's data cannot hold (over
     * 64 KiB) leaves the data as it was, and the job succeeds rather than being called again.
     */
    @Test
    void aSuccessWhoseAnswerIsTooLargeForDataSucceedsKeepingTheData() throws Exception {
        String type = Api.type("push-big-answer");
        String path = "/" + type;
        routes.put(path, call -> answer(call, 200, "{\"pad\":\"" + "x".repeat(70_000) + "\"}"));
        pushTo(type, path, "3");
        Api.put(type, "a", "{\"data\":{\"region\":\"eu\"}}").statusCode(201);
        JsonPath job = finished(type, "a");
        assertEquals("succeeded", job.getString("result"));
        assertEquals(List.of("succeeded"), job.getList("history.outcome"), "called once");
        assertEquals("eu", job.getString("data.region"));
    }

    /** Answers every connection with a line that is no HTTP, then closes it. */
    private static void answerNoHttp(ServerSocket server) {
        Thread answering = new Thread(() -> {
            while (!server.isClosed()) {
                try (java.net.Socket call = server.accept()) {
                    call.getInputStream().read(new byte[8192]);
                    call.getOutputStream().write("NOT-HTTP garbage\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } catch (java.io.IOException e) {
                    // closed at the end of the test, or the call gave up: nothing to answer
                }
            }
        }, "push-test-no-http");
        answering.setDaemon(true);
        answering.start();
    }

    @Test
    void anAnswerOtherThan2xxOrAnUnansweredCallFailsTheAttemptNamingWhy() throws Exception {
        String type = Api.type("push-fail");
        String prefix = "/" + type;
        routes.put(prefix + "/500", call -> answer(call, 500, "{\"error\":\"boom\"}"));
        routes.put(prefix + "/302", call -> call.request().response().setStatusCode(302)
                .putHeader("Location", url(prefix + "/elsewhere")).end());
        routes.put(prefix + "/elsewhere", call -> answer(call, 200, "{}"));
        routes.put(prefix + "/large", call -> answer(call, 200, "{\"pad\":\"" + "x".repeat(5 * MAX_ANSWER) + "\"}"));
        routes.put(prefix + "/slow", call -> { }); // never answers
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        try (ServerSocket garbage = new ServerSocket(0, 10, java.net.InetAddress.getLoopbackAddress());
                CapturedLog connections = CapturedLog.of(io.vertx.core.net.impl.ConnectionBase.class)) {
            answerNoHttp(garbage);
            Map<String, String> targets = Map.of(
                    "500", url(prefix + "/500"),
                    "302", url(prefix + "/302"),
                    "large", url(prefix + "/large"),
                    "slow", url(prefix + "/slow"),
                    "refused", "http://127.0.0.1:" + closedPort + "/nobody",
                    "garbage", "http://127.0.0.1:" + garbage.getLocalPort() + "/not-http");
            Map<String, String> errors = Map.of(
                    "500", "push target answered 500: {\"error\":\"boom\"}",
                    "302", "push target answered 302 (redirects are not followed)",
                    "large", "push target answered 200 with more than " + MAX_ANSWER + " bytes",
                    "slow", "push target did not answer within 0.5 s",
                    "refused", "push call failed: ",
                    "garbage", "push call failed: ");
            for (var target : targets.entrySet()) {
                String each = type + "-" + target.getKey();
                json("{\"maxAttempts\":1,\"push\":{\"url\":\"" + target.getValue() + "\",\"timeout\":0.5}}")
                        .put("/v1/types/{type}", each).then().statusCode(200);
                Api.put(each, "a", "{\"data\":{\"keep\":1}}").statusCode(201);
            }
            for (var target : targets.entrySet()) {
                JsonPath job = finished(type + "-" + target.getKey(), "a");
                assertEquals("failed", job.getString("result"), target.getKey());
                assertTrue(job.getString("lastError").startsWith(errors.get(target.getKey())),
                        target.getKey() + ": " + job.getString("lastError"));
                assertEquals(Map.of("keep", 1), job.getMap("data"), "a failure leaves the data");
            }
            assertEquals(List.of(), connections.messagesAtLeast(java.util.logging.Level.SEVERE),
                    "a target that answers no HTTP is its call's failure, not an error of the service");
        }
        assertTrue(received.getOrDefault(prefix + "/elsewhere", new LinkedBlockingQueue<>()).isEmpty(),
                "the redirect was not followed");
        String metrics = scrape();
        assertTrue(metrics.contains("jobfoundry_push_calls_total{outcome=\"timeout\",type=\"" + type + "-slow\"} 1.0"));
        assertTrue(metrics.contains("jobfoundry_push_calls_total{outcome=\"5xx\",type=\"" + type + "-500\"} 1.0"));
    }

    @Test
    void aThrottlingAnswerWithRetryAfterIsRetriedNoSoonerThanThat() throws Exception {
        String type = Api.type("push-429");
        String path = "/" + type;
        routes.put(path, call -> call.request().response().setStatusCode(429).putHeader("Retry-After", "120").end());
        pushTo(type, path, "5");
        Instant before = clock.instant();
        Api.put(type, "a", "{}").statusCode(201);
        next(path);
        JsonPath job = JsonPath.from(given().get("/v1/jobs/{type}/{id}?waitFor=pending&timeout=" + WAIT_SECONDS * 1000,
                type, "a").then().statusCode(200).body("state", equalTo("pending")).extract().asString());
        assertEquals(1, job.getInt("attempt"));
        assertTrue(job.getString("lastError").startsWith("push target answered 429; Retry-After 120"),
                job.getString("lastError"));
        assertFalse(Instant.parse(job.getString("scheduledAt")).isBefore(before.plusSeconds(119)),
                job.getString("scheduledAt"));
    }

    @Test
    void aTargetOutsideTheAllowListIsRefusedAndTheSettingIsCheckedLikeTheOthers() {
        String type = Api.type("push-refused");
        for (String url : List.of("http://localhost:9/x", "http://127.0.0.1.evil.example/x", "ftp://127.0.0.1/x")) {
            json("{\"push\":{\"url\":\"" + url + "\"}}").put("/v1/types/{type}", type).then().statusCode(400)
                    .contentType("application/problem+json").body("field", equalTo("push.url"));
        }
        json("{\"activityTimeout\":10,\"push\":{\"url\":\"" + url("/x") + "\",\"timeout\":11}}")
                .put("/v1/types/{type}", type).then().statusCode(400).body("field", equalTo("push.timeout"));
        json("{\"push\":{\"url\":\"" + url("/x") + "\",\"concurrency\":0}}").put("/v1/types/{type}", type).then()
                .statusCode(400).body("field", equalTo("push.concurrency"));
        json("{\"push\":{\"url\":\"" + url("/x") + "\",\"retries\":1}}").put("/v1/types/{type}", type).then()
                .statusCode(400).body("field", equalTo("push.retries"));
        json("{\"push\":{\"timeout\":3}}").put("/v1/types/{type}", type).then().statusCode(400)
                .body("field", equalTo("push.url"));
        // A short activity timeout makes the default push timeout as short; null turns it off.
        json("{\"activityTimeout\":10,\"push\":{\"url\":\"" + url("/x") + "\"}}").put("/v1/types/{type}", type)
                .then().statusCode(200).body("push.timeout", equalTo(10));
        json("{\"push\":{\"concurrency\":3}}").put("/v1/types/{type}", type).then().statusCode(200)
                .body("push.url", equalTo(url("/x"))).body("push.concurrency", equalTo(3));
        json("{\"push\":null}").put("/v1/types/{type}", type).then().statusCode(200).body("push", nullValue());
    }

    @Test
    void aCancelDuringACallAbortsIt() throws Exception {
        String type = Api.type("push-cancel");
        String path = "/" + type;
        routes.put(path, call -> { }); // holds the call until it is aborted
        // A function's long timeouts: a third of the activity timeout would be 200 s between
        // heartbeats. They come at most 5 s apart, and the one after the cancel is told to stop,
        // well before the call's own timeout, so the abort cannot be mistaken for a timeout.
        json("{\"activityTimeout\":600,\"push\":{\"url\":\"" + url(path) + "\",\"timeout\":300}}")
                .put("/v1/types/{type}", type).then().statusCode(200);
        Api.put(type, "a", "{}").statusCode(201);
        Received call = next(path);
        var closed = new java.util.concurrent.CompletableFuture<Void>();
        call.request().connection().closeHandler(v -> closed.complete(null));
        json("{}").post("/v1/jobs/{type}/{id}/cancel", type, "a").then().statusCode(200);

        closed.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals("cancelled", finished(type, "a").getString("result"));
        String metrics = scrape();
        assertTrue(metrics.contains("jobfoundry_push_calls_total{outcome=\"aborted\",type=\"" + type + "\"} 1.0"),
                "the call counted as aborted: " + metrics.lines().filter(l -> l.contains(type)).toList());
    }

    @Test
    void noMoreCallsThanTheTypesConcurrencyAreInFlight() throws Exception {
        String type = Api.type("push-bound");
        String path = "/" + type;
        List<Received> held = new CopyOnWriteArrayList<>();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        routes.put(path, call -> {
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            held.add(call);
        });
        json("{\"push\":{\"url\":\"" + url(path) + "\",\"concurrency\":2}}").put("/v1/types/{type}", type).then()
                .statusCode(200);
        int jobs = 6;
        for (int i = 0; i < jobs; i++) {
            Api.put(type, "j" + i, "{}").statusCode(201);
        }
        for (int answered = 0; answered < jobs; answered++) {
            int waiting = Math.min(2, jobs - answered);
            WaitsTest.awaitCondition(() -> held.size() >= waiting);
            if (answered == 0) {
                assertTrue(scrape().contains("jobfoundry_push_in_flight{type=\"" + type + "\"} 2.0"));
            }
            Received call = held.remove(0);
            inFlight.decrementAndGet();
            vertx.runOnContext(v -> answer(call, 200, "{}"));
        }
        for (int i = 0; i < jobs; i++) {
            assertEquals("succeeded", finished(type, "j" + i).getString("result"));
        }
        assertEquals(2, most.get());
    }

    /**
     * A type's whole concurrency reaches its target at once: the client's pool held five connections
     * per host, so the sixth call waited for one while its timeout ran, and failed unsent.
     */
    @Test
    void asManyCallsAsTheConcurrencyReachOneTargetAtOnce() throws Exception {
        String type = Api.type("push-wide");
        String path = "/" + type;
        int jobs = 12;
        List<Received> held = held(path);
        json("{\"push\":{\"url\":\"" + url(path) + "\",\"concurrency\":" + jobs + ",\"timeout\":30}}")
                .put("/v1/types/{type}", type).then().statusCode(200);
        for (int i = 0; i < jobs; i++) {
            Api.put(type, "j" + i, "{}").statusCode(201);
        }
        WaitsTest.awaitCondition(() -> held.size() == jobs);
        for (Received call : held) {
            vertx.runOnContext(v -> answer(call, 200, "{}"));
        }
        for (int i = 0; i < jobs; i++) {
            JsonPath job = finished(type, "j" + i);
            assertEquals("succeeded", job.getString("result"));
            assertEquals(1, job.getList("history").size(), "one call each: " + job.getList("history"));
        }
    }

    /**
     * A concurrency lowered while the type waits for jobs holds for the next ones at once: the
     * accept open for the old number of free slots would otherwise take up to that many, for as
     * long as it waits (30 s).
     */
    @Test
    void aLoweredConcurrencyHoldsForTheJobsThatComeNext() throws Exception {
        String type = Api.type("push-lowered");
        String path = "/" + type;
        List<Received> held = held(path);
        try (CapturedLog dispatcher = CapturedLog.of(io.jobfoundry.push.PushDispatcher.class)) {
            json("{\"push\":{\"url\":\"" + url(path) + "\",\"concurrency\":10}}").put("/v1/types/{type}", type)
                    .then().statusCode(200);
            WaitsTest.awaitCondition(() -> logged(dispatcher, "push: type " + type + " pushes to ") == 1);
            assertTrue(scrape().contains("jobfoundry_push_concurrency{type=\"" + type + "\"} 10.0"));
            json("{\"push\":{\"concurrency\":1}}").put("/v1/types/{type}", type).then().statusCode(200);
            WaitsTest.awaitCondition(() -> logged(dispatcher, "push: type " + type + " now pushes to ") == 1);
        }
        assertTrue(scrape().contains("jobfoundry_push_concurrency{type=\"" + type + "\"} 1.0"), "as applied");
        // Four jobs due in one transaction: an accept for ten would take them all.
        json("{\"jobs\":[" + IntStream.range(0, 4).mapToObj(i -> "{\"type\":\"" + type + "\",\"id\":\"j" + i + "\"}")
                .collect(Collectors.joining(",")) + "]}").post("/v1/jobs").then().statusCode(200);
        WaitsTest.awaitCondition(() -> held.size() == 1);
        assertEquals(3, pending(type), "one call in flight, the other jobs wait");
        for (int answered = 0; answered < 4; answered++) {
            int next = answered;
            WaitsTest.awaitCondition(() -> held.size() > next);
            assertEquals(next + 1, held.size(), "one at a time");
            vertx.runOnContext(v -> answer(held.get(next), 200, "{}"));
        }
        for (int i = 0; i < 4; i++) {
            assertEquals("succeeded", finished(type, "j" + i).getString("result"));
        }
    }

    /** Push turned off and on again while calls are in flight: they still count against the concurrency. */
    @Test
    void callsInFlightWhenPushIsTurnedOffAndOnStillCountAgainstTheConcurrency() throws Exception {
        String type = Api.type("push-toggle");
        String path = "/" + type;
        List<Received> held = held(path);
        String on = "{\"push\":{\"url\":\"" + url(path) + "\",\"concurrency\":2}}";
        try (CapturedLog dispatcher = CapturedLog.of(io.jobfoundry.push.PushDispatcher.class)) {
            json(on).put("/v1/types/{type}", type).then().statusCode(200);
            for (int i = 0; i < 4; i++) {
                Api.put(type, "j" + i, "{}").statusCode(201);
            }
            WaitsTest.awaitCondition(() -> held.size() == 2);
            // Each change is waited for as this replica takes it up (it reads the push types once a second).
            json("{\"push\":null}").put("/v1/types/{type}", type).then().statusCode(200);
            WaitsTest.awaitCondition(() -> logged(dispatcher, "push: type " + type + " no longer pushes") == 1);
            json(on).put("/v1/types/{type}", type).then().statusCode(200);
            WaitsTest.awaitCondition(() -> logged(dispatcher, "push: type " + type + " pushes to ") == 2);
        }
        // One call answered frees one slot: one more job is taken, the fourth waits for the next free slot.
        vertx.runOnContext(v -> answer(held.get(0), 200, "{}"));
        WaitsTest.awaitCondition(() -> held.size() >= 3);
        assertEquals(1, pending(type), "the two calls in flight kept their slots; " + held.size() + " calls made");
        for (Received call : List.of(held.get(1), held.get(2))) {
            vertx.runOnContext(v -> answer(call, 200, "{}"));
        }
        WaitsTest.awaitCondition(() -> held.size() == 4);
        vertx.runOnContext(v -> answer(held.get(3), 200, "{}"));
        for (int i = 0; i < 4; i++) {
            assertEquals("succeeded", finished(type, "j" + i).getString("result"));
        }
    }

    private static long logged(CapturedLog log, String prefix) {
        return log.messagesAtLeast(java.util.logging.Level.INFO).stream().filter(m -> m.startsWith(prefix)).count();
    }

    private static int pending(String type) {
        return given().get("/v1/jobs/{type}?state=pending", type).then().statusCode(200).extract().jsonPath()
                .getList("jobs").size();
    }

    /** The Cloud Scheduler case: a repeating job of a push type calls its target on schedule, handing each run's answer to the next. */
    @Test
    void aRecurringPushJobCallsItsTargetOnEachRunWithTheLastAnswersData() throws Exception {
        String type = Api.type("push-cron");
        String path = "/" + type;
        routes.put(path, call -> {
            int count = JsonPath.from(call.body()).getInt("data.count");
            answer(call, 200, "{\"count\":" + (count + 1) + "}");
        });
        pushTo(type, path, "3");
        Api.put(type, "nightly", "{\"data\":{\"count\":0},\"repeat\":\"FINISHED, +1 HOUR\"}").statusCode(201);

        assertEquals(0, JsonPath.from(next(path).body()).getInt("data.count"));
        JsonPath waiting = JsonPath.from(given().get("/v1/jobs/{type}/{id}?waitFor=pending&timeout="
                + WAIT_SECONDS * 1000, type, "nightly").then().statusCode(200).extract().asString());
        assertEquals("pending", waiting.getString("state"));
        assertEquals(Map.of("count", 1), waiting.getMap("data"));

        clock.advance(Duration.ofHours(1).plusSeconds(1));
        dueWaker.runOnce();
        assertEquals(1, JsonPath.from(next(path).body()).getInt("data.count"), "the second run has the first's answer");
        WaitsTest.awaitCondition(() -> given().get("/v1/jobs/{type}/{id}", type, "nightly").then().extract().path("data.count")
                .equals(2));
    }

    private static String scrape() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString();
    }

}
