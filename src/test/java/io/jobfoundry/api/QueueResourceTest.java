package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The operator's calls across types (API.md, "Operating the queue"): {@code GET /v1/jobs} and
 * {@code POST /v1/bulk}. Every test works on types under a prefix of its own, so that its globs
 * see none of the other tests' jobs.
 */
@QuarkusTest
class QueueResourceTest {

    private static final String PROBLEM = "application/problem+json";

    /** Every job the listing across types shows for {@code query}, paging with {@code limit}. */
    private static List<String> listEverything(String query, int limit) {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            Response page = given().queryParam("limit", limit).queryParam("cursor", cursor == null ? List.of() : List.of(cursor))
                    .get("/v1/jobs?" + query);
            page.then().statusCode(200).contentType("application/json");
            List<Map<String, Object>> jobs = page.path("jobs");
            assertTrue(jobs.size() <= limit, page.asString());
            jobs.forEach(job -> seen.add(job.get("type") + "/" + job.get("id")));
            cursor = page.path("next");
        } while (cursor != null);
        return seen;
    }

    private static void add(String type, String id, String body) {
        Api.put(type, id, body).statusCode(201);
    }

    /** A job that failed its only attempt. */
    private static void addFailed(String type, String id) {
        add(type, id, "{\"maxAttempts\":1}");
        String lease = Api.acceptOne(type);
        Api.finish(type, id, "{\"lease\":\"" + lease + "\",\"outcome\":\"failed\",\"error\":\"smtp 451\"}")
                .statusCode(200).body("result", equalTo("failed"));
    }

    private static Response bulk(String body) {
        return json(body).post("/v1/bulk");
    }

    @Inject
    TestClock clock;

    /**
     * {@code order=recent}: the failures of the last hour first, where id order would show the
     * oldest jobs; paged by its own cursor; only finished jobs, only one type's listing.
     */
    @Test
    void aTypesFinishedJobsAreListedLatestFirst() {
        String type = Api.type("recent");
        for (String id : List.of("c", "b", "a")) { // finished in the opposite order of their ids
            clock.advance(Duration.ofSeconds(1));
            addFailed(type, id);
        }
        add(type, "waiting", "{}");
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            Response page = given().queryParam("order", "recent").queryParam("result", "failed").queryParam("limit", 2)
                    .queryParam("cursor", cursor == null ? List.of() : List.of(cursor)).get("/v1/jobs/{type}", type);
            page.then().statusCode(200).contentType("application/json");
            List<Map<String, Object>> jobs = page.path("jobs");
            jobs.forEach(job -> seen.add((String) job.get("id")));
            cursor = page.path("next");
        } while (cursor != null);
        assertEquals(List.of("a", "b", "c"), seen);
        given().queryParam("order", "recent").queryParam("state", "finished").get("/v1/jobs/{type}", type).then()
                .statusCode(200).body("jobs.id", equalTo(List.of("a", "b", "c")));
        given().queryParam("order", "id").get("/v1/jobs/{type}", type).then()
                .statusCode(200).body("jobs.id", equalTo(List.of("a", "b", "c", "waiting")));

        given().queryParam("order", "recent").queryParam("state", "pending").get("/v1/jobs/{type}", type).then()
                .statusCode(400).contentType(PROBLEM).body("field", equalTo("state"));
        given().queryParam("order", "newest").get("/v1/jobs/{type}", type).then()
                .statusCode(400).contentType(PROBLEM).body("field", equalTo("order"));
        String byId = given().queryParam("limit", 1).get("/v1/jobs/{type}", type).then().extract().path("next");
        given().queryParam("order", "recent").queryParam("cursor", byId).get("/v1/jobs/{type}", type).then()
                .statusCode(400).contentType(PROBLEM).body("field", equalTo("cursor"));
        given().queryParam("order", "recent").queryParam("type", type).get("/v1/jobs").then()
                .statusCode(400).contentType(PROBLEM).body("field", equalTo("order"));
    }

    @Test
    void listsJobsAcrossTheTypesAGlobMatchesPagingWithoutGapsOrRepeats() {
        String base = Api.type("cross");
        add(base + ".b", "b2", "{}");
        add(base + ".b", "b1", "{\"group\":\"tenant-1\"}");
        add(base + ".a", "a1", "{}");
        add(base + ".c", "c1", "{\"group\":\"tenant-1\"}");
        List<String> all = List.of(base + ".a/a1", base + ".b/b1", base + ".b/b2", base + ".c/c1");
        for (int limit : new int[] {1, 3, 1000}) {
            assertEquals(all, listEverything("type=" + base + ".*", limit), "limit " + limit);
        }
        assertEquals(List.of(base + ".b/b1", base + ".b/b2"), listEverything("type=" + base + ".b", 1));
        assertEquals(List.of(base + ".b/b1", base + ".c/c1"),
                listEverything("type=" + base + ".?&group=tenant-1", 1));
        assertEquals(List.of(base + ".a/a1", base + ".b/b2"), listEverything("type=" + base + ".?&group=", 1));
        // Jobs of every type: ours are among them, in order.
        List<String> everything = listEverything("state=pending", 1000);
        assertEquals(all, everything.stream().filter(job -> job.startsWith(base + ".")).toList());
        // Each job is the job object the per-type listing shows.
        given().get("/v1/jobs?type=" + base + ".a").then().statusCode(200)
                .body("jobs", hasSize(1)).body("jobs[0].state", equalTo("pending"))
                .body("jobs[0].attempt", equalTo(0)).body("next", nullValue());
    }

    @Test
    void filtersByStateAndResult() {
        String base = Api.type("states");
        addFailed(base + ".x", "failed");
        add(base + ".y", "pending", "{}");
        add(base + ".y", "running", "{}");
        Api.put(base + ".y", "pending", "{\"scheduledAt\":\"2099-01-01T00:00:00Z\"}").statusCode(200);
        Api.acceptOne(base + ".y");
        String glob = "type=" + base + ".*";
        assertEquals(List.of(base + ".x/failed"), listEverything(glob + "&result=failed", 10));
        assertEquals(List.of(), listEverything(glob + "&result=succeeded", 10));
        assertEquals(List.of(base + ".y/running"), listEverything(glob + "&state=running", 10));
        assertEquals(List.of(base + ".y/pending"), listEverything(glob + "&state=pending", 10));
    }

    @Test
    void badQueriesAre400sNamingTheParameter() {
        String type = Api.type("badq");
        add(type, "a", "{}");
        add(type, "b", "{}");
        String perTypeCursor = given().get("/v1/jobs/{type}?limit=1", type).then().statusCode(200)
                .extract().path("next");
        Map<String, String> refused = Map.of(
                "cursor=" + perTypeCursor, "cursor",
                "cursor=not-a-cursor", "cursor",
                "state=done", "state",
                "result=ok", "result",
                "limit=0", "limit",
                "limit=1001", "limit",
                "limit=x", "limit",
                "type=email%2Fx", "type",
                "colour=red", "colour");
        refused.forEach((query, field) -> given().get("/v1/jobs?" + query).then()
                .statusCode(400).contentType(PROBLEM).body("field", equalTo(field)));
        given().get("/v1/jobs?colour=red").then().body("detail", containsString("unknown query parameter"));
    }

    @Test
    void bulkCancelEndsPendingJobsAndARunningJobsProcessorGets409() {
        String base = Api.type("bcancel");
        add(base + ".a", "p1", "{}");
        add(base + ".a", "run", "{}");
        Api.put(base + ".a", "p1", "{\"scheduledAt\":\"2099-01-01T00:00:00Z\"}").statusCode(200);
        String lease = Api.acceptOne(base + ".a");
        add(base + ".b", "p2", "{}");
        bulk("{\"action\":\"cancel\",\"filter\":{\"type\":\"" + base + ".*\"}}").then().statusCode(200)
                .contentType("application/json").body("matched", equalTo(3)).body("changed", equalTo(3));
        Api.heartbeat(base + ".a", "run", Api.lease(lease)).statusCode(409).body("reason", equalTo("cancelled"));
        Api.get(base + ".a", "p1").statusCode(200).body("result", equalTo("cancelled"));
        Api.get(base + ".b", "p2").statusCode(200).body("result", equalTo("cancelled"));
        // Repeating it is safe: everything matches, nothing more changes.
        bulk("{\"action\":\"cancel\",\"filter\":{\"type\":\"" + base + ".*\"}}").then().statusCode(200)
                .body("matched", equalTo(3)).body("changed", equalTo(0));
    }

    @Test
    void bulkRetryMakesFailedJobsPendingAsFreshRuns() {
        String type = Api.type("bretry");
        addFailed(type, "f1");
        addFailed(type, "f2");
        add(type, "waiting", "{\"scheduledAt\":\"2099-01-01T00:00:00Z\"}");
        bulk("{\"action\":\"retry\",\"filter\":{\"type\":\"" + type + "\",\"result\":\"failed\"}}").then()
                .statusCode(200).body("matched", equalTo(2)).body("changed", equalTo(2));
        for (String id : List.of("f1", "f2")) {
            Api.get(type, id).statusCode(200).body("state", equalTo("pending")).body("result", nullValue())
                    .body("attempt", equalTo(0)).body("lastError", nullValue());
        }
        // The pending ones match a filter without state, and are left alone.
        bulk("{\"action\":\"retry\",\"filter\":{\"type\":\"" + type + "\"}}").then()
                .statusCode(200).body("matched", equalTo(3)).body("changed", equalTo(0));
        given().get("/v1/types/{type}", type).then().statusCode(200).body("counts.failed", equalTo(0))
                .body("counts.pending", equalTo(3));
    }

    @Test
    void bulkRemoveTakesTheJobsAndARunningJobsProcessorGets409Removed() {
        String type = Api.type("bremove");
        add(type, "run", "{}");
        String lease = Api.acceptOne(type);
        add(type, "p", "{}");
        bulk("{\"action\":\"remove\",\"filter\":{\"type\":\"" + type + "\"}}").then().statusCode(200)
                .body("matched", equalTo(2)).body("changed", equalTo(2));
        Api.heartbeat(type, "run", Api.lease(lease)).statusCode(409).body("reason", equalTo("removed"));
        Api.get(type, "p").statusCode(404);
        given().get("/v1/jobs/{type}", type).then().statusCode(200).body("jobs", hasSize(0));
    }

    @Test
    void bulkStopsAtItsLimit() {
        String type = Api.type("blimit");
        StringBuilder jobs = new StringBuilder("{\"jobs\":[");
        for (int i = 0; i < 150; i++) {
            jobs.append(i == 0 ? "" : ",").append("{\"type\":\"").append(type).append("\",\"id\":\"j").append(i).append("\"}");
        }
        json(jobs.append("]}").toString()).post("/v1/jobs").then().statusCode(200);
        bulk("{\"action\":\"cancel\",\"filter\":{\"type\":\"" + type + "\",\"state\":\"pending\"},\"limit\":120}")
                .then().statusCode(200).body("matched", equalTo(120)).body("changed", equalTo(120));
        given().get("/v1/types/{type}", type).then().statusCode(200).body("counts.pending", equalTo(30))
                .body("counts.cancelled", equalTo(120));
    }

    @Test
    void badBulkBodiesAre400sNamingTheMemberAndChangeNothing() {
        String type = Api.type("bbad");
        add(type, "a", "{}");
        String filter = "\"filter\":{\"type\":\"" + type + "\"}";
        Map<String, String> refused = Map.ofEntries(
                Map.entry("{}", "filter"),
                Map.entry("{" + filter + "}", "action"),
                Map.entry("{\"action\":\"delete\"," + filter + "}", "action"),
                Map.entry("{\"action\":1," + filter + "}", "action"),
                Map.entry("{\"action\":\"remove\"}", "filter"),
                Map.entry("{\"action\":\"remove\",\"filter\":[]}", "filter"),
                Map.entry("{\"action\":\"remove\",\"filter\":{}}", "filter.type"),
                Map.entry("{\"action\":\"remove\",\"filter\":{\"type\":\"a/b\"}}", "filter.type"),
                Map.entry("{\"action\":\"remove\",\"filter\":{\"type\":\"\"}}", "filter.type"),
                Map.entry("{\"action\":\"remove\",\"filter\":{\"type\":\"" + type + "\",\"state\":\"done\"}}",
                        "filter.state"),
                Map.entry("{\"action\":\"remove\",\"filter\":{\"type\":\"" + type + "\",\"result\":\"ok\"}}",
                        "filter.result"),
                Map.entry("{\"action\":\"remove\",\"filter\":{\"type\":\"" + type + "\",\"colour\":\"red\"}}",
                        "filter.colour"),
                Map.entry("{\"action\":\"remove\"," + filter + ",\"limit\":0}", "limit"),
                Map.entry("{\"action\":\"remove\"," + filter + ",\"limit\":10001}", "limit"),
                Map.entry("{\"action\":\"remove\"," + filter + ",\"limit\":\"5\"}", "limit"),
                Map.entry("{\"action\":\"remove\"," + filter + ",\"force\":true}", "force"));
        refused.forEach((body, field) -> bulk(body).then().statusCode(400).contentType(PROBLEM)
                .body("field", equalTo(field)));
        bulk("{\"action\":\"remove\"," + filter).then().statusCode(400).contentType(PROBLEM);
        bulk("{\"action\":\"remove\",\"filter\":{\"type\":\"" + type + "\",\"group\":\"\\u0001\"}}").then()
                .statusCode(400).contentType(PROBLEM).body("field", equalTo("filter.group"))
                .body("detail", equalTo("filter.group is at most 256 characters without control characters"));
        Api.get(type, "a").statusCode(200).body("state", equalTo("pending"));
    }
}
