package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Type configuration (partial PUT) and counts. */
@QuarkusTest
class TypesResourceTest {

    /** Without jobfoundry.push.allowed-targets (the default) no type may push: a 400 saying what to configure. */
    @Test
    void pushIsRefusedWhileNoTargetIsAllowed() {
        String type = Api.type("push-off");
        json("{\"push\":{\"url\":\"https://hooks.example.com/run\"}}").put("/v1/types/{type}", type).then()
                .statusCode(400).contentType("application/problem+json").body("field", equalTo("push.url"))
                .body("detail", org.hamcrest.Matchers.containsString("jobfoundry.push.allowed-targets"));
        json("{\"push\":null}").put("/v1/types/{type}", type).then().statusCode(200)
                .body("push", org.hamcrest.Matchers.nullValue());
    }

    @Test
    void aTypeNeverUsedIs404() {
        given().get("/v1/types/{type}", Api.type("never")).then().statusCode(404)
                .contentType("application/problem+json")
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/type-not-found"));
    }

    @Test
    void aTypeIsCreatedWithDefaultsOnFirstUse() {
        String type = Api.type("defaults");
        Api.put(type, "j", "{}").statusCode(201);
        given().get("/v1/types/{type}", type).then().statusCode(200)
                .body("type", equalTo(type)).body("activityTimeout", equalTo(30)).body("maxAttempts", equalTo(25))
                .body("priorityScheme", equalTo(List.of(2, 1))).body("backoff.base", equalTo(5))
                .body("backoff.max", equalTo(3600))
                .body("counts.pending", equalTo(1)).body("counts.due", equalTo(1)).body("counts.running", equalTo(0))
                .body("counts.succeeded", equalTo(0)).body("counts.failed", equalTo(0))
                .body("counts.cancelled", equalTo(0));
    }

    @Test
    void putSetsTheWholeConfigurationOrPartsOfIt() {
        String type = Api.type("config");
        json("""
                {"activityTimeout":120,"maxAttempts":5,"priorityScheme":[3,1],"backoff":{"base":0.5,"max":60}}""")
                .put("/v1/types/{type}", type).then().statusCode(200)
                .body("activityTimeout", equalTo(120)).body("maxAttempts", equalTo(5))
                .body("priorityScheme", equalTo(List.of(3, 1))).body("backoff.base", equalTo(0.5f))
                .body("backoff.max", equalTo(60)).body("counts.pending", equalTo(0));
        // Members left out keep their current value, also inside backoff.
        json("{\"maxAttempts\":9,\"backoff\":{\"max\":90}}").put("/v1/types/{type}", type).then().statusCode(200)
                .body("activityTimeout", equalTo(120)).body("maxAttempts", equalTo(9))
                .body("priorityScheme", equalTo(List.of(3, 1))).body("backoff.base", equalTo(0.5f))
                .body("backoff.max", equalTo(90));
        given().get("/v1/types/{type}", type).then().statusCode(200).body("maxAttempts", equalTo(9));
        // A new job takes the type's maxAttempts.
        Api.put(type, "j", "{}").statusCode(201).body("maxAttempts", equalTo(9));
        // An empty body registers a type with the defaults, or leaves an existing one as it is.
        String fresh = Api.type("empty-config");
        given().put("/v1/types/{type}", fresh).then().statusCode(200).body("activityTimeout", equalTo(30));
        given().put("/v1/types/{type}", type).then().statusCode(200).body("activityTimeout", equalTo(120));
    }

    @Test
    void theEngineRulesAreReportedWithTheField() {
        String type = Api.type("rules");
        json("{\"activityTimeout\":0}").put("/v1/types/{type}", type).then().statusCode(400)
                .body("field", equalTo("activityTimeout"));
        json("{\"backoff\":{\"base\":10,\"max\":1}}").put("/v1/types/{type}", type).then().statusCode(400)
                .body("field", equalTo("backoff"));
        json("{\"priorityScheme\":[0,0]}").put("/v1/types/{type}", type).then().statusCode(400)
                .body("field", equalTo("priorityScheme"));
        json("{\"backoff\":{\"min\":1}}").put("/v1/types/{type}", type).then().statusCode(400)
                .body("field", equalTo("backoff.min"));
        given().get("/v1/types/{type}", type).then().statusCode(404); // nothing was registered
    }

    @Test
    void aDurationOutOfRangeIsRefusedWithTheRangeThatApplies() {
        String type = Api.type("ranges");
        // The activity timeout starts at 1 s: -1 and 0.5 are refused alike, naming that range.
        for (String timeout : List.of("-1", "0", "0.5", "31536001")) {
            json("{\"activityTimeout\":" + timeout + "}").put("/v1/types/{type}", type).then().statusCode(400)
                    .body("field", equalTo("activityTimeout"))
                    .body("detail", equalTo("activityTimeout must be within 1..31536000 seconds (365 days)"));
        }
        json("{\"backoff\":{\"base\":-1}}").put("/v1/types/{type}", type).then().statusCode(400)
                .body("field", equalTo("backoff.base"))
                .body("detail", equalTo("backoff.base must be within 0..31536000 seconds (365 days)"));
        json("{\"activityTimeout\":1,\"backoff\":{\"base\":0,\"max\":0}}").put("/v1/types/{type}", type).then()
                .statusCode(200).body("activityTimeout", equalTo(1)).body("backoff.base", equalTo(0));
    }

    @Test
    void listingShowsEveryTypeWithCounts() {
        String type = Api.type("listed");
        Api.put(type, "j", "{}").statusCode(201);
        given().get("/v1/types").then().statusCode(200)
                .body("types.type", hasItem(type))
                .body("types.find { it.type == '" + type + "' }.counts.pending", equalTo(1));
    }

    @Test
    void pauseAndResumeAreShownAndCounted() {
        String type = Api.type("paused");
        Api.put(type, "a", "{}").statusCode(201);
        given().post("/v1/types/{type}/pause", type).then().statusCode(200).body("paused", equalTo(true))
                .body("counts.due", equalTo(1));
        json("{\"types\":[\"" + type + "\"]}").post("/v1/accept").then().statusCode(204);
        given().get("/v1/types/{type}", type).then().body("paused", equalTo(true));
        given().post("/v1/types/{type}/resume", type).then().statusCode(200).body("paused", equalTo(false));
        json("{\"types\":[\"" + type + "\"]}").post("/v1/accept").then().statusCode(200);
        given().post("/v1/types/{type}/pause", "bad type").then().statusCode(400);
    }

    /** An operator's clean-up of a misspelt or retired type: refused with its counts while jobs are left. */
    @Test
    void aTypeIsDeletedOnceItsJobsAreRemoved() {
        String type = Api.type("retired");
        json("{\"maxAttempts\":3}").put("/v1/types/{type}", type).then().statusCode(200);
        Api.put(type, "a", "{}").statusCode(201);
        given().delete("/v1/types/{type}", type).then().statusCode(409).contentType("application/problem+json")
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/type-in-use"))
                .body("counts.pending", equalTo(1)).body("counts.running", equalTo(0))
                .body("detail", org.hamcrest.Matchers.containsString("POST /v1/bulk"));
        given().get("/v1/types/{type}", type).then().statusCode(200).body("maxAttempts", equalTo(3));

        json("{\"action\":\"remove\",\"filter\":{\"type\":\"" + type + "\"}}").post("/v1/bulk").then()
                .statusCode(200).body("changed", equalTo(1));
        json("{\"force\":true}").delete("/v1/types/{type}", type).then().statusCode(400);
        given().delete("/v1/types/{type}", type).then().statusCode(204);
        given().get("/v1/types/{type}", type).then().statusCode(404);
        given().get("/v1/types").then().statusCode(200).body("types.type", not(hasItem(type)));
        given().delete("/v1/types/{type}", type).then().statusCode(404)
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/type-not-found"));
        given().delete("/v1/types/{type}", "bad type").then().statusCode(400).body("field", equalTo("type"));

        Api.put(type, "b", "{}").statusCode(201);
        given().get("/v1/types/{type}", type).then().statusCode(200).body("maxAttempts", equalTo(25))
                .body("counts.pending", equalTo(1));
    }

    @Test
    void retentionIsShownWithItsDefaultsAndChangesMemberByMember() {
        String type = Api.type("retention");
        json("{}").put("/v1/types/{type}", type).then().statusCode(200)
                .body("retention.succeeded", equalTo(86400)).body("retention.failed", equalTo(604800))
                .body("retention.cancelled", equalTo(86400));
        // null keeps for good, 0 removes at once; members left out keep their value.
        json("{\"retention\":{\"failed\":null,\"succeeded\":0}}").put("/v1/types/{type}", type).then()
                .statusCode(200).body("retention.succeeded", equalTo(0)).body("retention.failed", nullValue())
                .body("retention.cancelled", equalTo(86400));
        given().get("/v1/types/{type}", type).then().body("retention.failed", nullValue())
                .body("retention.succeeded", equalTo(0));
        for (String bad : List.of("{\"retention\":{\"succeeded\":-1}}", "{\"retention\":{\"succeeded\":\"1d\"}}",
                "{\"retention\":{\"kept\":1}}", "{\"retention\":null}", "{\"retention\":{\"failed\":31536001}}")) {
            json(bad).put("/v1/types/{type}", type).then().statusCode(400)
                    .contentType("application/problem+json").body("field", startsWith("retention"));
        }
        given().get("/v1/types/{type}", type).then().body("retention.succeeded", equalTo(0)); // nothing changed
    }

    @Test
    void oldestDueAtShowsHowLongTheQueueHasWaited() {
        String type = Api.type("latency");
        json("{}").put("/v1/types/{type}", type).then().statusCode(200).body("oldestDueAt", nullValue());
        Api.put(type, "later", "{\"scheduledAt\":\"2999-01-01T00:00:00Z\"}").statusCode(201);
        given().get("/v1/types/{type}", type).then().body("oldestDueAt", nullValue());
        Api.put(type, "now", "{\"scheduledAt\":\"2020-01-01T00:00:00Z\"}").statusCode(201);
        given().get("/v1/types/{type}", type).then().body("oldestDueAt", equalTo("2020-01-01T00:00:00Z"));
        given().get("/v1/types").then()
                .body("types.find { it.type == '" + type + "' }.oldestDueAt", equalTo("2020-01-01T00:00:00Z"));
    }

    @Test
    void groupsArePagedWithTheirCounts() {
        String type = Api.type("groups");
        Api.put(type, "a", "{\"group\":\"tenant-a\"}").statusCode(201);
        Api.put(type, "b", "{\"group\":\"tenant-b\",\"scheduledAt\":\"2999-01-01T00:00:00Z\"}").statusCode(201);
        Api.put(type, "d", "{}").statusCode(201);
        given().get("/v1/types/{type}/groups", type).then().statusCode(200)
                .body("groups.group", equalTo(List.of("", "tenant-a", "tenant-b"))).body("next", nullValue())
                .body("groups[2].pending", equalTo(1)).body("groups[2].due", equalTo(0))
                .body("groups[2].running", equalTo(0));
        String next = given().queryParam("limit", 2).get("/v1/types/{type}/groups", type).then().statusCode(200)
                .body("groups.group", equalTo(List.of("", "tenant-a"))).extract().path("next");
        given().queryParam("limit", 2).queryParam("cursor", next).get("/v1/types/{type}/groups", type).then()
                .statusCode(200).body("groups.group", equalTo(List.of("tenant-b"))).body("next", nullValue());

        given().queryParam("cursor", "nope").get("/v1/types/{type}/groups", type).then().statusCode(400)
                .body("field", equalTo("cursor"));
        given().queryParam("limit", 0).get("/v1/types/{type}/groups", type).then().statusCode(400)
                .body("field", equalTo("limit"));
        given().queryParam("state", "pending").get("/v1/types/{type}/groups", type).then().statusCode(400);
        given().get("/v1/types/{type}/groups", Api.type("never")).then().statusCode(404);
    }
}
