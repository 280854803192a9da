package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Creating and managing jobs: every call of API.md's first table, its answers and its errors. */
@QuarkusTest
class JobsResourceTest {

    private static final String PROBLEM = "application/problem+json";

    @Test
    void postCreatesAJobWithAGeneratedIdAndItsLocation() {
        String type = Api.type("post");
        Response created = json("""
                {"data":{"to":"a@example.org","n":1.50,"big":1e400,"nested":{"list":[1,"x",null,true]}},
                 "group":"tenant-7","priority":"high","repeat":"hourly","maxAttempts":3}""")
                .post("/v1/jobs/{type}", type);
        created.then().statusCode(201)
                .contentType("application/json")
                .body("type", equalTo(type))
                .body("id", matchesPattern("[0-9A-Za-z_~]{22}"))
                .body("state", equalTo("pending"))
                .body("result", nullValue())
                .body("data.to", equalTo("a@example.org"))
                .body("data.nested.list", hasSize(4))
                .body("group", equalTo("tenant-7"))
                .body("priority", equalTo("high"))
                .body("repeat", equalTo("FINISHED, +1 HOUR"))
                .body("attempt", equalTo(0))
                .body("maxAttempts", equalTo(3))
                .body("lastError", nullValue())
                .body("resubmit", equalTo(false))
                .body("worker", nullValue())
                .body("startedAt", nullValue())
                .body("finishedAt", nullValue());
        String id = created.path("id");
        assertEquals(created.header("Location"), created.header("Location"));
        org.hamcrest.MatcherAssert.assertThat(created.header("Location"), endsWith("/v1/jobs/" + type + "/" + id));
        // Numbers keep their spelling and value: no floating-point round trip.
        org.hamcrest.MatcherAssert.assertThat(created.asString(), containsString("\"n\":1.50"));
        org.hamcrest.MatcherAssert.assertThat(created.asString(), containsString("\"big\":1e400"));
        Api.get(type, id).statusCode(200).body("id", equalTo(id)).body("data.to", equalTo("a@example.org"));
    }

    @Test
    void everyMemberOfTheJobObjectIsPresentEvenWhenNull() {
        String type = Api.type("members");
        Response created = given().post("/v1/jobs/{type}", type); // no body at all: all defaults
        created.then().statusCode(201).body("data", nullValue()).body("group", equalTo(""))
                .body("afterFailure", equalTo("cancel"))
                .body("priority", equalTo("low")).body("maxAttempts", equalTo(25));
        String text = created.asString();
        for (String member : List.of("type", "id", "state", "result", "data", "group", "priority", "scheduledAt",
                "createdAt", "updatedAt", "startedAt", "finishedAt", "repeat", "attempt", "maxAttempts", "lastError",
                "resubmit", "worker", "after", "afterFailure", "waitingFor", "history")) {
            org.hamcrest.MatcherAssert.assertThat(text, containsString("\"" + member + "\":"));
        }
        Instant scheduled = Instant.parse(created.path("scheduledAt"));
        assertEquals(scheduled, Instant.parse(created.path("createdAt")));
    }

    @Test
    void putCreatesThenUpdatesAPendingJob() {
        String type = Api.type("put");
        Response first = json("{\"data\":{\"v\":1},\"scheduledAt\":\"2030-01-01T00:00:00Z\"}")
                .put("/v1/jobs/{type}/{id}", type, "welcome-42");
        first.then().statusCode(201).body("id", equalTo("welcome-42"))
                .body("scheduledAt", equalTo("2030-01-01T00:00:00Z"));
        org.hamcrest.MatcherAssert.assertThat(first.header("Location"), endsWith("/v1/jobs/" + type + "/welcome-42"));

        // Existing and pending: its fields and scheduledAt change; members left out stay.
        Api.put(type, "welcome-42", "{\"scheduledAt\":1893456000,\"priority\":\"high\"}").statusCode(200)
                .body("scheduledAt", equalTo("2030-01-01T00:00:00Z"))
                .body("priority", equalTo("high"))
                .body("data.v", equalTo(1))
                .body("state", equalTo("pending"));
        // An explicit null drops the data.
        Api.put(type, "welcome-42", "{\"data\":null}").statusCode(200).body("data", nullValue())
                .body("priority", equalTo("high"));
    }

    @Test
    void idsMayHoldAnyCharacterButSlashAndControls() {
        String type = Api.type("ids");
        String id = "order #7 {ä} ?&=%+ 日本";
        String encoded = "order%20%237%20%7B%C3%A4%7D%20%3F%26%3D%25%2B%20%E6%97%A5%E6%9C%AC";
        Response created = given().urlEncodingEnabled(false).contentType("application/json").body("{}")
                .put("/v1/jobs/" + type + "/" + encoded);
        created.then().statusCode(201).body("id", equalTo(id));
        String location = created.header("Location");
        org.hamcrest.MatcherAssert.assertThat(location, endsWith("/v1/jobs/" + type + "/" + encoded));
        given().urlEncodingEnabled(false).get(location).then().statusCode(200).body("id", equalTo(id));
    }

    @Test
    void timesAreAcceptedInEveryContractFormAndEmittedInUtc() {
        String type = Api.type("times");
        Api.put(type, "rfc", "{\"scheduledAt\":\"2030-01-01T01:30:00+01:30\"}").statusCode(201)
                .body("scheduledAt", equalTo("2030-01-01T00:00:00Z"));
        Api.put(type, "fraction", "{\"scheduledAt\":\"2030-01-01t00:00:00.25z\"}").statusCode(201)
                .body("scheduledAt", equalTo("2030-01-01T00:00:00.250Z"));
        Api.put(type, "epoch", "{\"scheduledAt\":1893456000}").statusCode(201)
                .body("scheduledAt", equalTo("2030-01-01T00:00:00Z"));
        Api.put(type, "bedrock", "{\"scheduledAt\":\"2030-01-01 10:00:00\"}").statusCode(201)
                .body("scheduledAt", equalTo("2030-01-01T10:00:00Z"));
        Api.put(type, "bedrock-date", "{\"scheduledAt\":\"2030-01-01\"}").statusCode(201)
                .body("scheduledAt", equalTo("2030-01-01T00:00:00Z"));
        Api.put(type, "bad", "{\"scheduledAt\":\"next tuesday\"}").statusCode(400).contentType(PROBLEM)
                .body("field", equalTo("scheduledAt"))
                .body("detail", containsString("2026-11-21T10:00:00Z"));
        Api.get(type, "bad").statusCode(404);
    }

    @Test
    void getOfAnUnknownJobIs404() {
        given().get("/v1/jobs/{type}/{id}", Api.type("get"), "nope").then().statusCode(404).contentType(PROBLEM)
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/job-not-found"))
                .body("title", notNullValue()).body("status", equalTo(404)).body("detail", containsString("nope"));
    }

    @Test
    void patchChangesWhatTheStateAllows() {
        String type = Api.type("patch");
        Api.put(type, "p", "{\"data\":{\"a\":1},\"group\":\"g1\"}").statusCode(201);
        json("{\"priority\":\"high\",\"maxAttempts\":7,\"repeat\":\"daily\",\"data\":{\"b\":2},\"group\":\"g2\","
                + "\"scheduledAt\":\"2031-05-05T05:05:05Z\"}")
                .patch("/v1/jobs/{type}/{id}", type, "p").then().statusCode(200)
                .body("priority", equalTo("high")).body("maxAttempts", equalTo(7))
                .body("repeat", equalTo("FINISHED, +1 DAY")).body("data.b", equalTo(2)).body("data.a", nullValue())
                .body("group", equalTo("g2")).body("scheduledAt", equalTo("2031-05-05T05:05:05Z"));
        json("{\"repeat\":null}").patch("/v1/jobs/{type}/{id}", type, "p").then().statusCode(200)
                .body("repeat", nullValue()).body("priority", equalTo("high"));
        json("{\"priority\":\"low\"}").contentType("application/merge-patch+json")
                .patch("/v1/jobs/{type}/{id}", type, "p").then().statusCode(200).body("priority", equalTo("low"));
        json("{}").patch("/v1/jobs/{type}/{id}", type, "missing").then().statusCode(404).contentType(PROBLEM);

        // Running: priority, repeat and maxAttempts change; data (and scheduledAt, group) is a conflict.
        Api.put(type, "r", "{}").statusCode(201);
        json("{\"scheduledAt\":\"2000-01-01T00:00:00Z\"}").patch("/v1/jobs/{type}/{id}", type, "p").then()
                .statusCode(200); // p comes due first; accept takes r or p, so move p out of the way:
        json("{\"scheduledAt\":\"2099-01-01T00:00:00Z\"}").patch("/v1/jobs/{type}/{id}", type, "p").then()
                .statusCode(200);
        Api.acceptOne(type);
        json("{\"maxAttempts\":2,\"priority\":\"high\"}").patch("/v1/jobs/{type}/{id}", type, "r").then()
                .statusCode(200).body("maxAttempts", equalTo(2)).body("state", equalTo("running"));
        json("{\"data\":{\"x\":1}}").patch("/v1/jobs/{type}/{id}", type, "r").then().statusCode(409)
                .contentType(PROBLEM).body("type", equalTo("tag:jobfoundry.io,2026:problem/conflict"))
                .body("state", equalTo("running"));
        Api.get(type, "r").body("data", nullValue());
    }

    @Test
    void cancelEndsAPendingJobAndLeavesAFinishedOne() {
        String type = Api.type("cancel");
        Api.put(type, "c", "{}").statusCode(201);
        given().post("/v1/jobs/{type}/{id}/cancel", type, "c").then().statusCode(200)
                .body("state", equalTo("finished")).body("result", equalTo("cancelled"))
                .body("finishedAt", notNullValue());
        given().post("/v1/jobs/{type}/{id}/cancel", type, "c").then().statusCode(200)
                .body("result", equalTo("cancelled"));
        given().post("/v1/jobs/{type}/{id}/cancel", type, "missing").then().statusCode(404).contentType(PROBLEM);
        given().get("/v1/types/{type}", type).then().body("counts.cancelled", equalTo(1));
    }

    @Test
    void resubmitMovesAPendingJobAndRestartsAFinishedOne() {
        String type = Api.type("resubmit");
        Api.put(type, "r", "{\"scheduledAt\":\"2040-01-01T00:00:00Z\"}").statusCode(201);
        given().post("/v1/jobs/{type}/{id}/resubmit", type, "r").then().statusCode(200)
                .body("scheduledAt", equalTo("2040-01-01T00:00:00Z"));
        json("{\"scheduledAt\":\"2041-01-01 00:00:00\"}").post("/v1/jobs/{type}/{id}/resubmit", type, "r").then()
                .statusCode(200).body("state", equalTo("pending")).body("scheduledAt", equalTo("2041-01-01T00:00:00Z"));

        Api.put(type, "f", "{}").statusCode(201);
        given().post("/v1/jobs/{type}/{id}/cancel", type, "f").then().body("state", equalTo("finished"));
        given().post("/v1/jobs/{type}/{id}/resubmit", type, "f").then().statusCode(200)
                .body("state", equalTo("pending")).body("result", nullValue());
        given().post("/v1/jobs/{type}/{id}/resubmit", type, "missing").then().statusCode(404);
    }

    @Test
    void deleteRemovesEveryTrace() {
        String type = Api.type("delete");
        Api.put(type, "d", "{}").statusCode(201);
        given().delete("/v1/jobs/{type}/{id}", type, "d").then().statusCode(204);
        Api.get(type, "d").statusCode(404);
        given().delete("/v1/jobs/{type}/{id}", type, "d").then().statusCode(404).contentType(PROBLEM);
        given().get("/v1/types/{type}", type).then().body("counts.pending", equalTo(0));
    }

    @Test
    void dataOver64KiBIs413() {
        String type = Api.type("data");
        String big = "{\"data\":{\"s\":\"" + "x".repeat(64 * 1024) + "\"}}";
        Api.put(type, "big", big).statusCode(413).contentType(PROBLEM)
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/data-too-large"))
                .body("field", equalTo("data")).body("limit", equalTo(65536));
        Api.get(type, "big").statusCode(404);
        String fits = "{\"data\":{\"s\":\"" + "x".repeat(64 * 1024 - 8) + "\"}}";
        Api.put(type, "fits", fits).statusCode(201);
    }

    @Test
    void listPagesInIdOrderWithFilters() {
        String type = Api.type("list");
        for (int i = 0; i < 5; i++) {
            Api.put(type, "job-" + i, i % 2 == 0 ? "{\"group\":\"even\"}" : "{}").statusCode(201);
        }
        given().post("/v1/jobs/{type}/{id}/cancel", type, "job-4").then().statusCode(200);

        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            var request = given().queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            Response page = request.get("/v1/jobs/{type}", type);
            page.then().statusCode(200);
            ids.addAll(page.path("jobs.id"));
            cursor = page.path("next");
        } while (cursor != null);
        assertEquals(List.of("job-0", "job-1", "job-2", "job-3", "job-4"), ids);

        given().queryParam("state", "pending").get("/v1/jobs/{type}", type).then().statusCode(200)
                .body("jobs.id", equalTo(List.of("job-0", "job-1", "job-2", "job-3")))
                .body("jobs.state", everyItem(equalTo("pending"))).body("next", nullValue());
        given().queryParam("group", "even").queryParam("state", "finished").get("/v1/jobs/{type}", type).then()
                .body("jobs.id", equalTo(List.of("job-4")));
        given().queryParam("group", "").get("/v1/jobs/{type}", type).then()
                .body("jobs.id", equalTo(List.of("job-1", "job-3")));
        given().get("/v1/jobs/{type}", Api.type("empty")).then().statusCode(200)
                .body("jobs", hasSize(0)).body("next", nullValue());
    }

    @Test
    void reAddingAFinishedJobStartsItOver() {
        String type = Api.type("readd");
        Api.put(type, "x", "{\"data\":{\"run\":1}}").statusCode(201);
        String lease = Api.acceptOne(type);
        Api.finish(type, "x", "{\"lease\":\"" + lease + "\",\"outcome\":\"succeeded\",\"data\":{\"run\":1,\"ok\":true}}")
                .statusCode(200).body("state", equalTo("finished")).body("result", equalTo("succeeded"));
        Response again = json("{\"data\":{\"run\":2}}").put("/v1/jobs/{type}/{id}", type, "x");
        again.then().statusCode(200).body("state", equalTo("pending")).body("result", nullValue())
                .body("attempt", equalTo(0)).body("data.run", equalTo(2));
        assertNull(again.header("Location"));
        String second = Api.acceptOne(type);
        assertNotNull(second);
    }

    @Test
    void namesAreMeasuredInCharactersNotUtf16Units() {
        String type = Api.type("emoji");
        // Characters outside the BMP: 384 UTF-16 units for an id of 192 (768 bytes of UTF-8, an id's
        // most), 512 for a group of 256, stored in the same keys.
        String id = "😀".repeat(192);
        String group = "𝄞".repeat(256);
        String worker = "🛠️".repeat(128); // 2 code points each (U+1F6E0 U+FE0F)
        Api.put(type, id, "{\"group\":\"" + group + "\"}").statusCode(201).body("id", equalTo(id))
                .body("group", equalTo(group));
        json("{\"types\":[\"" + type + "\"],\"worker\":\"" + worker + "\"}").post("/v1/accept").then()
                .statusCode(200).body("[0].id", equalTo(id)).body("[0].worker", equalTo(worker));
        Api.get(type, id).statusCode(200).body("state", equalTo("running")).body("group", equalTo(group));
        given().queryParam("group", group).get("/v1/jobs/{type}", type).then().statusCode(200)
                .body("jobs.id", equalTo(List.of(id)));

        // One character more is one too many; 256 characters are an id while they fit in 768 bytes.
        Api.put(type, id + "a", "{}").statusCode(400).contentType(PROBLEM).body("field", equalTo("id"));
        Api.put(type, "€".repeat(256), "{}").statusCode(201);
        Api.put(type, "g", "{\"group\":\"" + group + "a\"}").statusCode(400).body("field", equalTo("group"));
        json("{\"types\":[\"" + type + "\"],\"worker\":\"" + worker + "a\"}").post("/v1/accept").then()
                .statusCode(400).body("field", equalTo("worker"));
        Api.get(type, "g").statusCode(404);
    }

    @Test
    void aPathNameIsTheUtf8ItEncodesAndNothingElse() {
        String type = Api.type("pathname");
        String jobs = "/v1/jobs/" + type + "/";
        // A byte that is not UTF-8 used to become U+FFFD, so %FF and %C3 named the same job.
        json("{}").urlEncodingEnabled(false).put(jobs + "%FF").then().statusCode(400).contentType(PROBLEM)
                .body("field", equalTo("id")).body("detail", containsString("UTF-8"));
        given().urlEncodingEnabled(false).get(jobs + "%EF%BF%BD").then().statusCode(404);
        // U+FFFD itself, validly encoded, is a character like any other.
        json("{}").urlEncodingEnabled(false).put(jobs + "%EF%BF%BD").then().statusCode(201)
                .body("id", equalTo("\uFFFD"));
        json("{\"group\":\"other\"}").urlEncodingEnabled(false).put(jobs + "%C3").then().statusCode(400);
        json("{\"group\":\"other\"}").urlEncodingEnabled(false).put(jobs + "%ED%A0%80").then().statusCode(400);
        Api.get(type, "\uFFFD").statusCode(200).body("group", equalTo(""));

        // A ';' must be encoded: unencoded, JAX-RS would drop it and what follows, and add the job "a".
        json("{}").urlEncodingEnabled(false).put(jobs + "a;b").then().statusCode(400).contentType(PROBLEM)
                .body("field", equalTo("id")).body("detail", containsString("%3B"));
        json("{}").urlEncodingEnabled(false).post("/v1/jobs/" + type + ";x=1").then().statusCode(400)
                .body("field", equalTo("type"));
        Response encoded = json("{}").urlEncodingEnabled(false).put(jobs + "a%3Bb");
        encoded.then().statusCode(201).body("id", equalTo("a;b"));
        org.hamcrest.MatcherAssert.assertThat(encoded.header("Location"), endsWith(jobs + "a%3Bb"));
        given().get("/v1/jobs/{type}", type).then().statusCode(200).body("jobs.id", equalTo(List.of("a;b", "\uFFFD")));
    }
}
