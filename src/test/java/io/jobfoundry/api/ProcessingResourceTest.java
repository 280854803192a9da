package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.background.ActivityMonitor;
import io.jobfoundry.jobs.background.DueWaker;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Accept, heartbeat and finish, the halts, and couch_jobs' scenarios around a running job. */
@QuarkusTest
class ProcessingResourceTest {

    private static final String PROBLEM = "application/problem+json";

    @Inject
    TestClock clock;

    @Inject
    ActivityMonitor activityMonitor;

    @Inject
    DueWaker dueWaker;

    @Test
    void acceptHandsOutDueJobsWithLeasesAnd204WhenThereAreNone() {
        String type = Api.type("accept");
        json("{\"types\":[\"" + type + "\"]}").post("/v1/accept").then().statusCode(204);
        Api.put(type, "a", "{\"data\":{\"n\":1}}").statusCode(201);
        Api.put(type, "b", "{}").statusCode(201);
        Api.put(type, "later", "{\"scheduledAt\":\"2099-01-01T00:00:00Z\"}").statusCode(201);

        // A label read from a file (a host name with its line break) is taken without the break.
        Response accepted = json("{\"types\":[\"" + type + "\"],\"max\":5,\"worker\":\"host-1\\n\"}").post("/v1/accept");
        // Oldest first; on FoundationDB one of the 16 oldest at random (docs/api.md), so either order.
        int a = Api.onFdb() && "b".equals(accepted.path("[0].id")) ? 1 : 0;
        accepted.then().statusCode(200).contentType("application/json").body("$", hasSize(2))
                .body("[" + a + "].id", equalTo("a")).body("[" + a + "].state", equalTo("running"))
                .body("[" + a + "].worker", equalTo("host-1")).body("[" + a + "].startedAt", notNullValue())
                .body("[" + a + "].data.n", equalTo(1)).body("[" + a + "].lease", notNullValue())
                .body("[" + (1 - a) + "].id", equalTo("b"))
                .body("[1].lease", not(equalTo(accepted.path("[0].lease"))));
        json("{\"types\":[\"" + type + "\"]}").post("/v1/accept").then().statusCode(204);
        given().get("/v1/types/{type}", type).then().body("counts.running", equalTo(2))
                .body("counts.pending", equalTo(1)).body("counts.due", equalTo(0));
    }

    @Test
    void acceptTakesGlobsAndRespectsMaxScheduledAtAndPriority() {
        String prefix = Api.type("glob");
        Api.put(prefix + "-x", "low", "{}").statusCode(201);
        Api.put(prefix + "-x", "high", "{\"priority\":\"high\"}").statusCode(201);
        // Scheduled before either job: nothing qualifies.
        json("{\"types\":[\"" + prefix + "-?\"],\"maxScheduledAt\":\"2000-01-01T00:00:00Z\"}").post("/v1/accept")
                .then().statusCode(204);
        json("{\"types\":[\"" + prefix + "*\"],\"maxScheduledAt\":null}").post("/v1/accept").then()
                .statusCode(200).body("[0].id", equalTo("high")).body("[0].type", equalTo(prefix + "-x"));
    }

    @Test
    void aWorkerCanAlwaysSendBackTheDataItWasGiven() {
        String type = Api.type("echo");
        String data = "{\"big\":10e2147483647,\"zero\":-0,\"n\":1.50,\"tiny\":-2.5E-2147483646}";
        Api.put(type, "e", "{\"data\":" + data + "}").statusCode(201);
        Response accepted = json("{\"types\":[\"" + type + "\"]}").post("/v1/accept");
        accepted.then().statusCode(200);
        String lease = accepted.path("[0].lease");
        // The data comes back spelled as it was sent, so echoing it is a request like the first.
        String given = accepted.asString();
        assertTrue(given.contains("\"data\":" + data + ","), given);
        Api.heartbeat(type, "e", "{\"lease\":\"" + lease + "\",\"data\":" + data + "}").statusCode(200);
        Response finished = json("{\"lease\":\"" + lease + "\",\"outcome\":\"succeeded\",\"data\":" + data + "}")
                .post("/v1/jobs/{type}/{id}/finish", type, "e");
        finished.then().statusCode(200).body("result", equalTo("succeeded"));
        assertTrue(finished.asString().contains("\"data\":" + data + ","), finished.asString());
    }

    @Test
    void heartbeatRenewsAndReplacesDataThenFinishSucceeds() {
        String type = Api.type("heartbeat");
        Api.put(type, "h", "{\"data\":{\"step\":0}}").statusCode(201);
        String lease = Api.acceptOne(type);
        Api.heartbeat(type, "h", Api.lease(lease)).statusCode(200).body("data.step", equalTo(0))
                .body("state", equalTo("running")).body("resubmit", equalTo(false));
        Api.heartbeat(type, "h", "{\"lease\":\"" + lease + "\",\"data\":{\"step\":1}}").statusCode(200)
                .body("data.step", equalTo(1));
        Api.get(type, "h").body("data.step", equalTo(1)); // progress is visible to GET
        Api.finish(type, "h", "{\"lease\":\"" + lease + "\",\"outcome\":\"succeeded\",\"data\":{\"step\":2}}")
                .statusCode(200).body("state", equalTo("finished")).body("result", equalTo("succeeded"))
                .body("data.step", equalTo(2)).body("finishedAt", notNullValue());
        // The same finish again (a retry by the worker) is answered as the first was.
        Api.finish(type, "h", Api.succeeded(lease)).statusCode(200).body("result", equalTo("succeeded"));
        Api.heartbeat(type, "h", Api.lease(lease)).statusCode(409).contentType(PROBLEM)
                .body("reason", equalTo("lease-lost"));
    }

    /** Only the same finish is answered again: another outcome with the spent lease is a halt. */
    @Test
    void aDifferentFinishWithASpentLeaseIsLeaseLostAndChangesNothing() {
        String type = Api.type("spent-lease");
        Api.put(type, "s", "{}").statusCode(201);
        String first = Api.acceptOne(type);
        Api.finish(type, "s", Api.succeeded(first)).statusCode(200).body("result", equalTo("succeeded"));
        String failed = "{\"lease\":\"" + first + "\",\"outcome\":\"failed\",\"error\":\"boom\"}";
        Api.finish(type, "s", failed).statusCode(409).contentType(PROBLEM).body("reason", equalTo("lease-lost"));
        Api.get(type, "s").body("result", equalTo("succeeded")).body("lastError", nullValue());

        // Added and accepted again: the old lease's failure must not pass for the new run's finish.
        Api.put(type, "s", "{}").statusCode(200);
        Api.finish(type, "s", Api.succeeded(first)).statusCode(200).body("state", equalTo("pending"));
        String second = Api.acceptOne(type);
        Api.finish(type, "s", failed).statusCode(409).body("reason", equalTo("lease-lost"));
        // Even the same finish: the job runs again, under the second lease.
        Api.finish(type, "s", Api.succeeded(first)).statusCode(409).body("reason", equalTo("lease-lost"));
        Api.get(type, "s").body("state", equalTo("running")).body("lastError", nullValue());
        Api.finish(type, "s", Api.succeeded(second)).statusCode(200).body("state", equalTo("finished"));
    }

    @Test
    void progressDataOver64KiBIs413AndChangesNothing() {
        String type = Api.type("progress-big");
        Api.put(type, "j", "{\"data\":{\"small\":true}}").statusCode(201);
        String lease = Api.acceptOne(type);
        String big = "{\"s\":\"" + "x".repeat(64 * 1024) + "\"}";
        Api.heartbeat(type, "j", "{\"lease\":\"" + lease + "\",\"data\":" + big + "}").statusCode(413)
                .contentType(PROBLEM).body("field", equalTo("data"));
        Api.finish(type, "j", "{\"lease\":\"" + lease + "\",\"outcome\":\"succeeded\",\"data\":" + big + "}")
                .statusCode(413);
        Api.get(type, "j").body("state", equalTo("running")).body("data.small", equalTo(true));
        Api.heartbeat(type, "j", "{\"lease\":\"" + lease + "\",\"data\":null}").statusCode(200)
                .body("data", nullValue());
    }

    /** A long error is cut at 4,096 characters, never inside one: an emoji is one character. */
    @Test
    void aLongErrorIsCutAtCharactersNotHalfwayThroughOne() {
        String type = Api.type("long-error");
        Api.put(type, "e", "{}").statusCode(201);
        String lease = Api.acceptOne(type);
        String error = "a".repeat(4095) + "\uD83D\uDE00\uD83D\uDE00"; // 4,097 characters, 4,099 UTF-16 units
        json("{\"lease\":\"" + lease + "\",\"outcome\":\"failed\",\"error\":\"" + error + "\"}")
                .post("/v1/jobs/{type}/{id}/finish", type, "e").then().statusCode(200)
                .body("lastError", equalTo("a".repeat(4095) + "\uD83D\uDE00"));
    }

    @Test
    void aFailedRunRetriesAfterBackoffUntilAttemptsAreUsedUp() {
        String type = Api.type("fail");
        json("{\"backoff\":{\"base\":60,\"max\":600}}").put("/v1/types/{type}", type).then().statusCode(200);
        Api.put(type, "f", "{\"maxAttempts\":2}").statusCode(201);
        String lease = Api.acceptOne(type);
        Instant before = clock.instant();
        Response failed = json("{\"lease\":\"" + lease + "\",\"outcome\":\"failed\",\"error\":\"smtp down\"}")
                .post("/v1/jobs/{type}/{id}/finish", type, "f");
        failed.then().statusCode(200).body("state", equalTo("pending")).body("attempt", equalTo(1))
                .body("lastError", equalTo("smtp down")).body("result", nullValue());
        Instant retryAt = Instant.parse(failed.path("scheduledAt"));
        assertTrue(!retryAt.isBefore(before.plusSeconds(30)) && !retryAt.isAfter(clock.instant().plusSeconds(60)),
                "retry at " + retryAt + " is base 60 s with equal jitter");
        json("{\"types\":[\"" + type + "\"]}").post("/v1/accept").then().statusCode(204);

        clock.advance(Duration.ofSeconds(61));
        dueWaker.runOnce();
        String second = Api.acceptOne(type);
        Api.finish(type, "f", "{\"lease\":\"" + second + "\",\"outcome\":\"failed\",\"error\":\"still down\"}")
                .statusCode(200).body("state", equalTo("finished")).body("result", equalTo("failed"))
                .body("attempt", equalTo(2)).body("lastError", equalTo("still down"))
                // Why it failed twice, attempt by attempt, without reading logs.
                .body("history.attempt", equalTo(List.of(1, 2)))
                .body("history.outcome", equalTo(List.of("failed", "failed")))
                .body("history.error", equalTo(List.of("smtp down", "still down")))
                .body("history[0].startedAt", notNullValue()).body("history[1].endedAt", notNullValue());
        Response job = Api.get(type, "f").statusCode(200).body("history.size()", equalTo(2)).extract().response();
        // Each attempt's members in the contract's order.
        String attempt = job.asString().substring(job.asString().indexOf("\"history\":"));
        List<String> order = List.of("\"attempt\":", "\"startedAt\":", "\"endedAt\":", "\"outcome\":", "\"error\":",
                "\"worker\":");
        for (int i = 1; i < order.size(); i++) {
            assertTrue(attempt.indexOf(order.get(i - 1)) < attempt.indexOf(order.get(i)), attempt);
        }
    }

    @Test
    void aRepeatingJobGoesBackToPendingWithTheDataItFinishedWith() {
        String type = Api.type("repeat");
        Api.put(type, "r", "{\"repeat\":\"FINISHED, +1 HOUR\",\"data\":{\"cursor\":0}}").statusCode(201);
        String lease = Api.acceptOne(type);
        Response done = json("{\"lease\":\"" + lease + "\",\"outcome\":\"succeeded\",\"data\":{\"cursor\":10}}")
                .post("/v1/jobs/{type}/{id}/finish", type, "r");
        done.then().statusCode(200).body("state", equalTo("pending")).body("data.cursor", equalTo(10));
        Instant finished = Instant.parse(done.path("finishedAt"));
        assertEquals(finished.plus(Duration.ofHours(1)).toEpochMilli(),
                Instant.parse(done.path("scheduledAt")).toEpochMilli());
    }

    // ---- couch_jobs scenarios ----------------------------------------------------------------

    @Test
    void resubmitWhileRunningRunsTheJobAgainAfterItFinishes() {
        String type = Api.type("resubmit-running");
        Api.put(type, "j", "{\"data\":{\"v\":1}}").statusCode(201);
        String lease = Api.acceptOne(type);
        // couch_jobs: add of a running job flags it; so does resubmit.
        // Priority applies at once; data given with it does not (the next run gets the finish's data).
        Api.put(type, "j", "{\"priority\":\"high\",\"data\":{\"v\":99}}").statusCode(200)
                .body("state", equalTo("running")).body("resubmit", equalTo(true)).body("priority", equalTo("high"))
                .body("data.v", equalTo(1));
        Api.heartbeat(type, "j", Api.lease(lease)).statusCode(200).body("resubmit", equalTo(true));
        Api.finish(type, "j", "{\"lease\":\"" + lease + "\",\"outcome\":\"succeeded\",\"data\":{\"v\":2}}")
                .statusCode(200).body("state", equalTo("pending")).body("resubmit", equalTo(false))
                .body("data.v", equalTo(2));
        String again = Api.acceptOne(type);
        given().post("/v1/jobs/{type}/{id}/resubmit", type, "j").then().statusCode(200)
                .body("resubmit", equalTo(true));
        Api.finish(type, "j", Api.succeeded(again)).statusCode(200).body("state", equalTo("pending"));
    }

    @Test
    void resubmitByTheProcessorCarriesItsLease() {
        String type = Api.type("resubmit-lease");
        Api.put(type, "j", "{}").statusCode(201);
        String lease = Api.acceptOne(type);
        json("{\"lease\":\"" + lease + "\",\"scheduledAt\":\"2099-01-01T00:00:00Z\"}")
                .post("/v1/jobs/{type}/{id}/resubmit", type, "j").then().statusCode(200)
                .body("resubmit", equalTo(true));
        json("{\"lease\":\"not-the-lease\"}").post("/v1/jobs/{type}/{id}/resubmit", type, "j").then()
                .statusCode(409).body("reason", equalTo("lease-lost"));
        Api.finish(type, "j", Api.succeeded(lease)).statusCode(200).body("state", equalTo("pending"))
                .body("scheduledAt", equalTo("2099-01-01T00:00:00Z"));
    }

    @Test
    void removeWhileRunningHaltsTheProcessor() {
        String type = Api.type("remove-running");
        Api.put(type, "j", "{}").statusCode(201);
        String lease = Api.acceptOne(type);
        given().delete("/v1/jobs/{type}/{id}", type, "j").then().statusCode(204);
        Api.heartbeat(type, "j", Api.lease(lease)).statusCode(409).contentType(PROBLEM)
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/halt"))
                .body("status", equalTo(409)).body("reason", equalTo("removed"));
        Api.finish(type, "j", Api.succeeded(lease)).statusCode(409).body("reason", equalTo("removed"));
        Api.get(type, "j").statusCode(404);
    }

    @Test
    void cancelWhileRunningHaltsTheProcessorAndEndsTheJobCancelled() {
        String type = Api.type("cancel-running");
        Api.put(type, "j", "{}").statusCode(201);
        String lease = Api.acceptOne(type);
        given().post("/v1/jobs/{type}/{id}/cancel", type, "j").then().statusCode(200);
        Api.heartbeat(type, "j", Api.lease(lease)).statusCode(409).body("reason", equalTo("cancelled"));
        Api.get(type, "j").body("state", equalTo("finished")).body("result", equalTo("cancelled"));
        Api.finish(type, "j", Api.succeeded(lease)).statusCode(409).body("reason", equalTo("cancelled"));
    }

    @Test
    void activityTimeoutReEnqueuesTheJobAndTheOldLeaseHalts() {
        String type = Api.type("timeout");
        json("{\"activityTimeout\":5}").put("/v1/types/{type}", type).then().statusCode(200)
                .body("activityTimeout", equalTo(5));
        Api.put(type, "j", "{}").statusCode(201);
        String stale = Api.acceptOne(type);
        activityMonitor.runOnce(); // notes the type's latest activity
        clock.advance(Duration.ofSeconds(6));
        activityMonitor.runOnce(); // no heartbeat since: back to pending
        Api.get(type, "j").statusCode(200).body("state", equalTo("pending")).body("attempt", equalTo(1))
                .body("lastError", containsString("activity timeout"));
        Api.heartbeat(type, "j", Api.lease(stale)).statusCode(409).body("reason", equalTo("lease-lost"));

        String fresh = Api.acceptOne(type);
        Api.heartbeat(type, "j", Api.lease(fresh)).statusCode(200);
        Api.finish(type, "j", Api.succeeded(stale)).statusCode(409).body("reason", equalTo("lease-lost"));
        Api.finish(type, "j", Api.succeeded(fresh)).statusCode(200).body("result", equalTo("succeeded"));
    }

    @Test
    void aHeartbeatKeepsTheJobAlive() {
        String type = Api.type("alive");
        json("{\"activityTimeout\":5}").put("/v1/types/{type}", type).then().statusCode(200);
        Api.put(type, "j", "{}").statusCode(201);
        String lease = Api.acceptOne(type);
        activityMonitor.runOnce();
        clock.advance(Duration.ofSeconds(3));
        Api.heartbeat(type, "j", Api.lease(lease)).statusCode(200);
        activityMonitor.runOnce();
        clock.advance(Duration.ofSeconds(3));
        activityMonitor.runOnce();
        Api.get(type, "j").body("state", equalTo("running"));
        Api.heartbeat(type, "j", Api.lease(lease)).statusCode(200);
    }

    @Test
    void callsOnAJobThatNeverExistedHalt() {
        String type = Api.type("ghost");
        Api.heartbeat(type, "nobody", Api.lease("x")).statusCode(409).body("reason", equalTo("removed"));
        Api.finish(type, "nobody", Api.succeeded("x")).statusCode(409).body("reason", equalTo("removed"));
    }

    @Test
    void acceptMaxIsBoundedByTheContract() {
        String type = Api.type("max");
        json("{\"types\":[\"" + type + "\"],\"max\":100}").post("/v1/accept").then().statusCode(204);
        json("{\"types\":[\"" + type + "\"],\"max\":101}").post("/v1/accept").then().statusCode(400)
                .body("field", equalTo("max"));
        given().get("/v1/types/{type}", type).then().statusCode(404); // accept does not create types
        json("{\"types\":[\"" + type + "\"],\"max\":1,\"wait\":0}").post("/v1/accept").then()
                .statusCode(204);
    }
}
