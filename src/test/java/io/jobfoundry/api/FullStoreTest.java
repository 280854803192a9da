package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A store out of room ({@code jobfoundry.embedded.max-size}, as a full disk): every write is a 503
 * that says so, changes nothing, and is counted under its path, so that an operator's alert on the
 * 503s of the API's paths sees it and the answer tells what to do.
 */
@QuarkusTest
@TestProfile(FullStoreTest.SmallStore.class)
class FullStoreTest {

    public static class SmallStore implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // The embedded store's own limit, whichever store the other tests run on.
            return Map.of("jobfoundry.store", "embedded",
                    "jobfoundry.embedded.path", "target/test-stores/full-" + UUID.randomUUID() + ".db",
                    "jobfoundry.embedded.max-size", "1M");
        }
    }

    @Test
    void aFullStoreAnswers503SayingSoAndChangesNothing() {
        String type = Api.type("full");
        String data = "{\"data\":{\"blob\":\"" + "x".repeat(60_000) + "\"}}";
        int stored = 0;
        while (json(data).put("/v1/jobs/{type}/{id}", type, "j" + stored).then().extract().statusCode() == 201) {
            stored++;
            assertTrue(stored < 100, "a store of 1 MB took 100 jobs of 60 KB");
        }
        json(data).put("/v1/jobs/{type}/{id}", type, "refused").then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", "1")
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/store-unavailable"))
                .body("detail", containsString("the store is full"));
        given().get("/v1/jobs/{type}/{id}", type, "refused").then().statusCode(404);
        json("{\"jobs\":[{\"type\":\"" + type + "\",\"id\":\"in-batch\"," + data.substring(1) + "]}")
                .post("/v1/jobs").then().statusCode(503).body("detail", containsString("the store is full"));
        given().get("/v1/jobs/{type}/{id}", type, "in-batch").then().statusCode(404);
        given().get("/v1/jobs/{type}/{id}", type, "j0").then().statusCode(200);

        // The way out the detail names works under the store's own limit, where the disk has room
        // for the log: removals go through, and what they free takes new jobs.
        json("{\"action\":\"remove\",\"filter\":{\"type\":\"" + type + "\"},\"limit\":2}").post("/v1/bulk").then()
                .statusCode(200).body("changed", equalTo(2));
        json(data).put("/v1/jobs/{type}/{id}", type, "after-room").then().statusCode(201);

        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.lines().anyMatch(line -> line.startsWith("http_server_requests_seconds_count{")
                && line.contains("status=\"503\"") && line.contains("uri=\"/v1/jobs\"")), metrics);
    }
}
