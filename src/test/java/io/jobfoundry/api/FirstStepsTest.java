package io.jobfoundry.api;

import static io.jobfoundry.api.Api.json;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a newcomer trying the API with curl tripped over: each answer must say what was wrong in
 * the newcomer's own terms, not in the server's internals, and never mislead.
 */
@QuarkusTest
class FirstStepsTest {

    @Test
    void aContentTypeThatIsNotAMediaTypeIsNamed() {
        given().header("Content-Type", "json").body("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8)).put("/v1/jobs/{type}/{id}", Api.type("ct"), "a").then()
                .statusCode(400).contentType("application/problem+json")
                .body("detail", allOf(containsString("Content-Type"), containsString("application/json")))
                .body("detail", not(containsString("HTTP 400")));
    }

    @Test
    void malformedJsonSaysWhereWithoutTheReadersInternals() {
        json("{\"data\": {\"a\": 1}").put("/v1/jobs/{type}/{id}", Api.type("json"), "a").then().statusCode(400)
                .body("detail", allOf(containsString("not valid JSON"), containsString("line 1, column")))
                .body("detail", allOf(not(containsString("REDACTED")), not(containsString("StreamReadFeature")),
                        not(containsString("Source"))));
    }

    /** NaN, a comment: Jackson's refusals advise switching on its own features, which a client cannot. */
    @Test
    void jsonExtensionsAreRefusedWithoutTheReadersAdvice() {
        String type = Api.type("json-ext");
        for (String body : new String[] {"{\"data\": {\"n\": NaN}}", "{\"data\": {\"n\": -Infinity}}",
                "{/* note */ \"data\": {}}"}) {
            json(body).put("/v1/jobs/{type}/{id}", type, "a").then().statusCode(400)
                    .body("detail", containsString("not valid JSON"))
                    .body("detail", allOf(not(containsString("enable")), not(containsString("Feature")),
                            not(containsString("JsonReadFeature"))));
        }
        json("{\"data\": {\"n\": NaN}}").put("/v1/jobs/{type}/{id}", type, "a").then()
                .body("detail", containsString("JSON has no such value"));
        Api.get(type, "a").statusCode(404);
    }

    @Test
    void aLeaseThatIsNotTheJobsSaysWhatTheJobIsDoing() {
        String type = Api.type("lease");
        Api.put(type, "pending", "{}").statusCode(201);
        Api.heartbeat(type, "pending", Api.lease("made-up")).statusCode(409).body("reason", equalTo("lease-lost"))
                .body("detail", allOf(containsString("pending"), not(containsString("activity timeout"))));
        Api.heartbeat(type, "never-added", Api.lease("made-up")).statusCode(409).body("reason", equalTo("removed"))
                .body("detail", containsString("never existed"));
    }

    @Test
    void theExamplesOfARepeatErrorCanBeToldApart() {
        Api.put(Api.type("repeat"), "a", "{\"repeat\":\"SCHEDULED\"}").statusCode(400)
                .body("detail", containsString("\"SCHEDULED, +1 HOUR\", \"STARTED, +30 MINUTES\""));
    }

    @Test
    void aPathUnderV1ThatIsNoCallDoesNotSayTheApiLivesUnderV1() {
        given().get("/v1/job/x").then().statusCode(404).body("detail", not(containsString("lives under /v1")))
                .body("detail", containsString("docs/api.md"));
        given().get("/jobs/x").then().statusCode(404).body("detail", containsString("under /v1"));
        given().delete("/v1/jobs").then().statusCode(405).body("detail", not(containsString("lives under")));
    }

    @Test
    void generatedIdsDoNotStartWithADash() {
        String type = Api.type("ids");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(json("{}").post("/v1/jobs/{type}", type).then().statusCode(201).extract().path("id"));
        }
        for (String id : ids) {
            assertFalse(id.startsWith("-"), id + " would read as an option on a command line");
            assertTrue(id.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '~'), id);
        }
    }

    /** ?result=failed was silently ignored and listed every job: a parameter a call does not take is refused. */
    @Test
    void anUnknownQueryParameterIsRefusedOnEveryCall() {
        String type = Api.type("query");
        Api.put(type, "a", "{}").statusCode(201);
        given().get("/v1/jobs/{type}?colour=red", type).then().statusCode(400).body("field", equalTo("colour"))
                .body("detail", allOf(containsString("unknown query parameter"), containsString("result")));
        given().get("/v1/jobs/{type}/{id}?wait=1", type, "a").then().statusCode(400).body("field", equalTo("wait"));
        given().get("/v1/types?limit=5").then().statusCode(400).body("detail", containsString("takes none"));
        json("{\"types\":[\"" + type + "\"]}").post("/v1/accept?max=2").then().statusCode(400);
        Api.get(type, "a").statusCode(200);
    }

    @Test
    void theResultFilterListsOnlyFinishedJobsWithThatResult() {
        String type = Api.type("result");
        Api.put(type, "pending", "{}").statusCode(201);
        Api.put(type, "done", "{}").statusCode(201);
        json("{}").post("/v1/jobs/{type}/{id}/cancel", type, "done").then().statusCode(200);
        given().get("/v1/jobs/{type}?result=cancelled", type).then().statusCode(200)
                .body("jobs.id", org.hamcrest.Matchers.contains("done"));
        given().get("/v1/jobs/{type}?result=failed", type).then().statusCode(200)
                .body("jobs", org.hamcrest.Matchers.empty());
        given().get("/v1/jobs/{type}?result=bogus", type).then().statusCode(400).body("field", equalTo("result"));
    }

    @Test
    void aWaitThatLooksLikeSecondsIsRefusedWithTheUnit() {
        json("{\"types\":[\"" + Api.type("wait") + "\"],\"wait\":30}").post("/v1/accept").then().statusCode(400)
                .body("field", equalTo("wait")).body("detail", allOf(containsString("milliseconds"),
                        containsString("30000")));
        json("{\"types\":[\"" + Api.type("wait") + "\"],\"wait\":0}").post("/v1/accept").then().statusCode(204);
        json("{\"types\":[\"" + Api.type("wait") + "\"],\"wait\":100}").post("/v1/accept").then().statusCode(204);
    }
}
