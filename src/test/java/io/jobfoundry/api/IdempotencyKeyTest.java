package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The {@code Idempotency-Key} header: a client's repeat of a PUT, resubmit or batch create that
 * took effect (after a 503, or a connection lost before the answer) changes nothing, even once a
 * worker has taken the job the call made pending; a malformed key is a 400 that changes nothing.
 */
@QuarkusTest
class IdempotencyKeyTest {

    private static final String PROBLEM = "application/problem+json";

    @Test
    void aRepeatedPutDoesNotRunTheJobTwiceButANewCallDoes() {
        String type = Api.type("key-put");
        String key = UUID.randomUUID().toString();
        json("{\"data\":{\"n\":1}}").header("Idempotency-Key", key).put("/v1/jobs/{type}/{id}", type, "a")
                .then().statusCode(201).body("state", equalTo("pending"));
        String lease = Api.acceptOne(type);
        // The same call again, the key quoted as the IETF draft writes it: answered as the first was.
        json("{\"data\":{\"n\":1}}").header("Idempotency-Key", "\"" + key + "\"").put("/v1/jobs/{type}/{id}", type, "a")
                .then().statusCode(201).body("state", equalTo("running")).body("resubmit", equalTo(false));
        // A new call (a new key) while it runs: runs it again once it finishes, as a PUT does.
        json("{\"data\":{\"n\":1}}").header("Idempotency-Key", UUID.randomUUID().toString())
                .put("/v1/jobs/{type}/{id}", type, "a").then().statusCode(200).body("resubmit", equalTo(true));
        Api.finish(type, "a", Api.succeeded(lease)).statusCode(200).body("state", equalTo("pending"));
    }

    @Test
    void aRepeatedResubmitDoesNotRunTheJobTwice() {
        String type = Api.type("key-resubmit");
        Api.put(type, "a", "{}").statusCode(201);
        Api.finish(type, "a", Api.succeeded(Api.acceptOne(type))).statusCode(200).body("state", equalTo("finished"));
        given().header("Idempotency-Key", "resubmit-1").post("/v1/jobs/{type}/{id}/resubmit", type, "a").then()
                .statusCode(200).body("state", equalTo("pending"));
        String lease = Api.acceptOne(type);
        given().header("Idempotency-Key", "resubmit-1").post("/v1/jobs/{type}/{id}/resubmit", type, "a").then()
                .statusCode(200).body("state", equalTo("running")).body("resubmit", equalTo(false));
        Api.finish(type, "a", Api.succeeded(lease)).statusCode(200).body("state", equalTo("finished"));
    }

    @Test
    void aRepeatedBatchRecognizesItsItemsAndAKeyedItemNeedsAnId() {
        String type = Api.type("key-batch");
        String batch = "{\"jobs\":[{\"type\":\"" + type + "\",\"id\":\"a\"},{\"type\":\"" + type + "\",\"id\":\"b\"}]}";
        json(batch).header("Idempotency-Key", "batch-1").post("/v1/jobs").then().statusCode(200)
                .body("jobs.status", equalTo(List.of(201, 201)));
        Api.acceptOne(type);
        Api.acceptOne(type);
        json(batch).header("Idempotency-Key", "batch-1").post("/v1/jobs").then().statusCode(200)
                .body("jobs.job.state", equalTo(List.of("running", "running")))
                .body("jobs.job.resubmit", equalTo(List.of(false, false)));

        json("{\"jobs\":[{\"type\":\"" + type + "\",\"id\":\"c\"},{\"type\":\"" + type + "\"}]}")
                .header("Idempotency-Key", "batch-2").post("/v1/jobs").then().statusCode(400).contentType(PROBLEM)
                .body("errors", hasSize(1)).body("errors[0].field", equalTo("jobs[1].id"));
        Api.get(type, "c").statusCode(404);
    }

    @Test
    void aMalformedOrRepeatedKeyIsRefusedAndChangesNothing() throws Exception {
        String type = Api.type("key-bad");
        for (String bad : new String[] {"", "k".repeat(65), "two words", "\"\"", "a\\b"}) {
            json("{}").header("Idempotency-Key", bad).put("/v1/jobs/{type}/{id}", type, "a").then()
                    .statusCode(400).contentType(PROBLEM).body("field", equalTo("Idempotency-Key"));
        }
        // Two fields, and the same joined into one as a proxy may (RFC 9110): which key would it be?
        // Sent with the JDK's client over HTTP/1.1 (RestAssured, told to repeat a header, repeated
        // the Content-Type too, which is refused as such). Not over an h2c upgrade: Vert.x folds an
        // upgraded request's repeated fields into the last one on the way.
        HttpRequest repeated = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/v1/jobs/"
                + type + "/a")).header("Content-Type", "application/json").header("Idempotency-Key", "one")
                .header("Idempotency-Key", "two").PUT(HttpRequest.BodyPublishers.ofString("{}")).build();
        HttpResponse<String> twice = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(repeated, HttpResponse.BodyHandlers.ofString());
        assertEquals(400, twice.statusCode(), twice.body());
        assertEquals(PROBLEM, twice.headers().firstValue("Content-Type").orElse(""));
        assertTrue(twice.body().contains("once"), twice.body());
        json("{}").header("Idempotency-Key", "one, two").put("/v1/jobs/{type}/{id}", type, "a").then()
                .statusCode(400).contentType(PROBLEM).body("detail", containsString("once"));
        Api.get(type, "a").statusCode(404);
    }

    @Test
    void aBulkActionRefusesAKeyItCouldNotHonour() {
        String type = Api.type("key-bulk");
        Api.put(type, "a", "{}").statusCode(201);
        json("{\"action\":\"cancel\",\"filter\":{\"type\":\"" + type + "\"}}").header("Idempotency-Key", "bulk-1")
                .post("/v1/bulk").then().statusCode(400).contentType(PROBLEM).body("field", equalTo("Idempotency-Key"))
                .body("detail", containsString("acts on the jobs that match when it comes"));
        Api.get(type, "a").statusCode(200).body("state", equalTo("pending"));
    }

    @Test
    void aCreateWithAGeneratedIdRefusesAKeyItCouldNotHonour() {
        String type = Api.type("key-create");
        json("{}").header("Idempotency-Key", "create-1").post("/v1/jobs/{type}", type).then().statusCode(400)
                .contentType(PROBLEM).body("field", equalTo("Idempotency-Key"))
                .body("detail", containsString("PUT /v1/jobs/{type}/{id}"));
        given().get("/v1/jobs?type=" + type).then().statusCode(200).body("jobs", hasSize(0));
    }
}
