package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jobfoundry.jobs.waits.JobWaits;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** Blocking accept and waitFor: answered as soon as the job is there, no thread held meanwhile. */
@QuarkusTest
class WaitsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    JobWaits waits;

    @Test
    void aBlockingAcceptIsHandedAJobAddedWhileItWaits() throws Exception {
        String type = Api.type("blocking");
        int waitingBefore = waits.waitingAccepts();
        CompletableFuture<HttpResponse<String>> accept = post("/v1/accept",
                "{\"types\":[\"" + type + "\"],\"wait\":60000,\"worker\":\"w\"}");
        awaitCondition(() -> waits.waitingAccepts() > waitingBefore);
        assertFalse(accept.isDone(), "nothing to accept yet");

        Api.put(type, "late", "{\"data\":{\"n\":1}}").statusCode(201);
        HttpResponse<String> answer = accept.get(20, TimeUnit.SECONDS); // far less than the 60 s wait
        assertEquals(200, answer.statusCode(), answer.body());
        JsonNode jobs = JSON.readTree(answer.body());
        assertEquals("late", jobs.get(0).get("id").asText());
        assertEquals("running", jobs.get(0).get("state").asText());
        assertTrue(jobs.get(0).hasNonNull("lease"));
    }

    @Test
    void aJobDueCenturiesAgoIsHandedOutLikeAnyOther() throws Exception {
        // Its wait (due → start) is longer than a timer's nanoseconds hold: that used to fail the
        // answer with a 500 after the accept had committed, leaving the job running under a lease
        // nobody had.
        String type = Api.type("ancient");
        Api.put(type, "a", "{\"scheduledAt\":\"1700-01-01\"}").statusCode(201);
        Api.acceptOne(type);
        Api.get(type, "a").statusCode(200).body("state", org.hamcrest.Matchers.equalTo("running"));

        // The same through a hand-off to a waiting worker, in the adding transaction.
        int waitingBefore = waits.waitingAccepts();
        CompletableFuture<HttpResponse<String>> accept = post("/v1/accept",
                "{\"types\":[\"" + type + "\"],\"wait\":60000,\"worker\":\"w\"}");
        awaitCondition(() -> waits.waitingAccepts() > waitingBefore);
        Api.put(type, "b", "{\"scheduledAt\":\"0001-01-01\"}").statusCode(201);
        HttpResponse<String> answer = accept.get(20, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals("b", JSON.readTree(answer.body()).get(0).get("id").asText());

        // Both waited from their creation, moments ago, not for centuries: the wait metric's sum,
        // which would overflow, stays a few seconds at most.
        String metrics = io.restassured.RestAssured.given().get("/q/metrics").then().statusCode(200).extract().asString();
        String sum = metrics.lines().filter(line -> line.startsWith("jobfoundry_jobs_wait_seconds_sum{")
                && line.contains("type=\"" + type + "\"")).findFirst().orElseThrow();
        double seconds = Double.parseDouble(sum.substring(sum.lastIndexOf(' ') + 1));
        assertTrue(seconds >= 0 && seconds < 60, sum);
    }

    @Test
    void aBlockingAcceptEndsWith204WhenItsWaitEnds() throws Exception {
        HttpResponse<String> answer = post("/v1/accept", "{\"types\":[\"" + Api.type("idle") + "\"],\"wait\":100}")
                .get(20, TimeUnit.SECONDS);
        assertEquals(204, answer.statusCode());
    }

    @Test
    void aWorkerThatHangsUpIsNotHandedAJob() throws Exception {
        String type = Api.type("hangup");
        int waitingBefore = waits.waitingAccepts();
        String body = "{\"types\":[\"" + type + "\"],\"wait\":60000}";
        try (Socket socket = new Socket("localhost", io.restassured.RestAssured.port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/accept HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
            out.flush();
            awaitCondition(() -> waits.waitingAccepts() > waitingBefore);
        }
        awaitCondition(() -> waits.waitingAccepts() == waitingBefore);
        Api.put(type, "j", "{}").statusCode(201);
        json("{\"types\":[\"" + type + "\"]}").post("/v1/accept").then().statusCode(200)
                .body("[0].id", equalTo("j"));
    }

    @Test
    void waitForAnswersAtOnceWhenTheJobIsAlreadyThere() {
        String type = Api.type("waitfor-now");
        Api.put(type, "j", "{}").statusCode(201);
        given().queryParam("waitFor", "pending").queryParam("timeout", 60000).get("/v1/jobs/{type}/{id}", type, "j")
                .then().statusCode(200).body("state", equalTo("pending"));
    }

    @Test
    void waitForAnswersWhenTheJobReachesTheState() throws Exception {
        String type = Api.type("waitfor");
        Api.put(type, "j", "{}").statusCode(201);
        CompletableFuture<HttpResponse<String>> waiting = get("/v1/jobs/" + type + "/j?waitFor=finished&timeout=60000");
        String lease = Api.acceptOne(type);
        assertFalse(waiting.isDone(), "still running");
        Api.finish(type, "j", Api.succeeded(lease)).statusCode(200);
        HttpResponse<String> answer = waiting.get(20, TimeUnit.SECONDS);
        assertEquals(200, answer.statusCode());
        assertEquals("finished", JSON.readTree(answer.body()).get("state").asText());
        assertEquals("succeeded", JSON.readTree(answer.body()).get("result").asText());
    }

    @Test
    void waitForAnswersTheCurrentStateWhenTheTimeoutEnds() {
        String type = Api.type("waitfor-timeout");
        Api.put(type, "j", "{}").statusCode(201);
        given().queryParam("waitFor", "finished").queryParam("timeout", 50).get("/v1/jobs/{type}/{id}", type, "j")
                .then().statusCode(200).body("state", equalTo("pending"));
        // Without a timeout the default (30 s) applies; the job is pending, so this answers at once.
        given().queryParam("waitFor", "pending").get("/v1/jobs/{type}/{id}", type, "j").then().statusCode(200);
    }

    @Test
    void waitForAJobThatIsMissingOrRemovedIs404() throws Exception {
        String type = Api.type("waitfor-gone");
        given().queryParam("waitFor", "finished").get("/v1/jobs/{type}/{id}", type, "none").then().statusCode(404)
                .contentType("application/problem+json");
        Api.put(type, "j", "{}").statusCode(201);
        CompletableFuture<HttpResponse<String>> waiting = get("/v1/jobs/" + type + "/j?waitFor=running&timeout=60000");
        given().delete("/v1/jobs/{type}/{id}", type, "j").then().statusCode(204);
        HttpResponse<String> answer = waiting.get(20, TimeUnit.SECONDS);
        assertEquals(404, answer.statusCode());
        assertEquals("application/problem+json", answer.headers().firstValue("Content-Type").orElse(""));
    }

    private static CompletableFuture<HttpResponse<String>> post(String path, String body) {
        return SseClient.http().sendAsync(HttpRequest.newBuilder(SseClient.uri(path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static CompletableFuture<HttpResponse<String>> get(String path) {
        return SseClient.http().sendAsync(HttpRequest.newBuilder(SseClient.uri(path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** For conditions no event announces (a waiter registered on the server): checked every millisecond. */
    static void awaitCondition(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 20 s");
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

}
