package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.background.DependencyResolver;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Dependencies over HTTP (API.md, "Dependencies"): the members {@code after} and {@code waitingFor}
 * of the job object, {@code afterFailure}, and every bad {@code after} a 400 naming the member that
 * changes nothing. The resolver runs by {@code runOnce()}: the tests' service runs no monitors.
 */
@QuarkusTest
class DependenciesResourceTest {

    private static final String PROBLEM = "application/problem+json";

    @Inject
    DependencyResolver resolver;

    private static String ref(String type, String id) {
        return "{\"type\":\"" + type + "\",\"id\":\"" + id + "\"}";
    }

    @Test
    void aJobWaitsForItsAfterAndShowsWhatItStillWaitsFor() {
        String extract = Api.type("extract");
        String load = Api.type("load");
        Api.put(extract, "a", "{}").statusCode(201);
        Api.put(extract, "b", "{}").statusCode(201);
        Response created = json("{\"after\":[" + ref(extract, "a") + "," + ref(extract, "b") + "]}")
                .post("/v1/jobs/{type}", load);
        created.then().statusCode(201).body("state", equalTo("pending"))
                .body("after", hasSize(2)).body("after[0].type", equalTo(extract)).body("after[0].id", equalTo("a"))
                .body("waitingFor", hasSize(2)).body("waitingFor[1].id", equalTo("b"));
        String id = created.path("id");
        // The contract's order: after and waitingFor come just before history.
        String text = created.asString();
        assertTrue(text.indexOf("\"worker\":") < text.indexOf("\"after\":")
                && text.indexOf("\"waitingFor\":") < text.indexOf("\"history\":"), text);
        // ... and each names its job as {"type","id"}.
        assertTrue(text.contains("\"after\":[{\"type\":\"" + extract + "\",\"id\":\"a\"}"), text);
        assertTrue(text.contains("\"waitingFor\":[{\"type\":\"" + extract + "\",\"id\":\"a\"}"), text);
        json("{\"types\":[\"" + load + "\"]}").post("/v1/accept").then().statusCode(204);

        Response leased = json("{\"types\":[\"" + extract + "\"],\"max\":2}").post("/v1/accept").then().statusCode(200)
                .extract().response();
        List<String> ids = leased.path("id");
        List<String> leases = leased.path("lease");
        for (int i = 0; i < 2; i++) {
            Api.finish(extract, ids.get(i), Api.succeeded(leases.get(i))).statusCode(200);
        }
        resolver.runOnce();
        Api.get(load, id).statusCode(200).body("waitingFor", hasSize(0)).body("after", hasSize(2));
        assertEquals(id, json("{\"types\":[\"" + load + "\"]}").post("/v1/accept").then().statusCode(200)
                .extract().path("[0].id"));
    }

    @Test
    void aJobWithoutDependenciesShowsEmptyArrays() {
        String type = Api.type("plain");
        Api.put(type, "x", "{}").statusCode(201).body("after", hasSize(0)).body("waitingFor", hasSize(0));
    }

    @Test
    void aFailedDependencyCancelsTheJobUnlessItRunsAfterFailure() {
        String extract = Api.type("extract");
        String load = Api.type("load");
        Api.put(extract, "a", "{\"maxAttempts\":1}").statusCode(201);
        Api.put(load, "cancelled", "{\"after\":[" + ref(extract, "a") + "]}").statusCode(201);
        Api.put(load, "runs", "{\"after\":[" + ref(extract, "a") + "],\"afterFailure\":\"run\"}").statusCode(201)
                .body("afterFailure", equalTo("run"));
        Api.get(load, "cancelled").body("afterFailure", equalTo("cancel"));
        String lease = Api.acceptOne(extract);
        Api.finish(extract, "a", "{\"lease\":\"" + lease + "\",\"outcome\":\"failed\",\"error\":\"boom\"}")
                .statusCode(200);
        resolver.runOnce();
        Api.get(load, "cancelled").body("state", equalTo("finished")).body("result", equalTo("cancelled"))
                .body("lastError", containsString("job a of type " + extract)).body("history", hasSize(0));
        Api.get(load, "runs").body("state", equalTo("pending")).body("waitingFor", hasSize(0));
    }

    @Test
    void badDependenciesAre400NamingTheMemberAndCreateNothing() {
        String extract = Api.type("extract");
        String load = Api.type("load");
        Api.put(extract, "a", "{}").statusCode(201);
        String tooMany = IntStream.range(0, 101).mapToObj(i -> ref(extract, "a" + i)).collect(Collectors.joining(","));
        Map<String, String> bodies = Map.of(
                "{\"after\":[" + ref(extract, "a") + "," + ref(extract, "missing") + "]}", "after[1]",
                "{\"after\":[" + tooMany + "]}", "after",
                "{\"after\":[" + ref(load, "x") + "]}", "after[0]",
                "{\"after\":[\"" + extract + "/a\"]}", "after[0]",
                "{\"after\":[{\"type\":\"" + extract + "\"}]}", "after[0].id",
                "{\"after\":[{\"type\":\"" + extract + "\",\"id\":\"a\",\"colour\":1}]}", "after[0].colour",
                "{\"after\":{\"type\":\"" + extract + "\",\"id\":\"a\"}}", "after",
                "{\"after\":[" + ref("bad type", "a") + "]}", "after[0].type",
                "{\"afterFailure\":\"maybe\"}", "afterFailure");
        for (Map.Entry<String, String> bad : bodies.entrySet()) {
            json(bad.getKey()).put("/v1/jobs/{type}/{id}", load, "x").then().statusCode(400).contentType(PROBLEM)
                    .body("field", equalTo(bad.getValue()));
        }
        Api.get(load, "x").statusCode(404);
        Api.put(load, "y", "{}").statusCode(201);
        json("{\"after\":[" + ref(extract, "a") + "]}").patch("/v1/jobs/{type}/{id}", load, "y").then()
                .statusCode(400).body("field", equalTo("after"));
    }

    @Test
    void aPutWithAfterOfARunningJobIs409AndOfAPendingOneReplacesThem() {
        String extract = Api.type("extract");
        String load = Api.type("load");
        Api.put(extract, "a", "{}").statusCode(201);
        Api.put(extract, "b", "{}").statusCode(201);
        Api.put(load, "l", "{\"after\":[" + ref(extract, "a") + "]}").statusCode(201);
        Api.put(load, "l", "{\"after\":[" + ref(extract, "b") + "]}").statusCode(200)
                .body("waitingFor", hasSize(1)).body("waitingFor[0].id", equalTo("b"));
        Api.put(load, "l", "{\"after\":[]}").statusCode(200).body("waitingFor", hasSize(0));
        Api.acceptOne(load);
        Api.put(load, "l", "{\"after\":[" + ref(extract, "a") + "]}").statusCode(409).contentType(PROBLEM);
        Api.get(load, "l").body("state", equalTo("running")).body("resubmit", equalTo(false));
    }

    @Test
    void aBatchMayNameEarlierItemsOfTheSameBatch() {
        String step = Api.type("step");
        String batch = "{\"jobs\":[{\"type\":\"" + step + "\",\"id\":\"1\"},"
                + "{\"type\":\"" + step + "\",\"id\":\"2\",\"after\":[" + ref(step, "1") + "]}]}";
        json(batch).post("/v1/jobs").then().statusCode(200)
                .body("jobs[1].job.waitingFor[0].id", equalTo("1"));
        String forward = "{\"jobs\":[{\"type\":\"" + step + "\",\"id\":\"3\",\"after\":[" + ref(step, "4") + "]},"
                + "{\"type\":\"" + step + "\",\"id\":\"4\"}]}";
        json(forward).post("/v1/jobs").then().statusCode(400).contentType(PROBLEM)
                .body("errors", hasSize(1)).body("errors[0].index", equalTo(0))
                .body("errors[0].field", equalTo("jobs[0].after[0]"));
        Api.get(step, "4").statusCode(404);
        List<String> ids = json("{\"types\":[\"" + step + "\"],\"max\":10}").post("/v1/accept").then().statusCode(200)
                .extract().path("id");
        assertEquals(List.of("1"), ids, "2 waits for 1");
    }
}
