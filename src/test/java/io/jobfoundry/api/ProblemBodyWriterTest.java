package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Error responses name no media type of their own; {@link ProblemBodyWriter} sets it as it writes
 * the document. Whatever the endpoint produces and whatever the client accepts, an error is sent
 * with exactly one {@code Content-Type}, {@code application/problem+json}, and its document.
 */
@QuarkusTest
class ProblemBodyWriterTest {

    @Test
    void everyKindOfErrorIsSentAsOneProblemDocument() {
        String type = Api.type("problems");
        check(given().get("/v1/jobs/{type}/{id}", type, "missing"), 404, "job-not-found");
        check(given().accept("*/*").get("/v1/jobs/{type}/{id}", type, "missing"), 404, "job-not-found");
        check(given().accept("application/json").get("/v1/jobs/{type}/{id}", type, "missing"), 404, "job-not-found");
        // An endpoint that produces text/event-stream, and no endpoint at all.
        check(given().accept("text/event-stream").get("/v1/jobs/{type}/{id}/events", type, "missing"), 404,
                "job-not-found");
        check(given().get("/v1/no/such/thing"), 404, "about:blank");
        // HTTP's own refusals: a method not allowed, an unacceptable Accept, a body that is not JSON.
        check(given().delete("/v1/accept"), 405, "about:blank");
        check(given().accept("text/html").get("/v1/types"), 406, "about:blank");
        check(given().contentType("text/plain").body("{}").put("/v1/jobs/{type}/{id}", type, "j"), 415, null);
        // A client error from the engine, answered on the event loop (create), and from the API's input checks.
        check(Api.json("{\"priority\":\"urgent\"}").post("/v1/jobs/{type}", type), 400, "invalid-request");
        check(given().get("/v1/jobs/{type}?limit=0", type), 400, "invalid-request");
    }

    /** A HEAD is answered with the headers of its GET: no document, but its type. */
    @Test
    void aHeadThatFailsNamesTheProblemType() {
        String type = Api.type("problems-head");
        for (Response response : List.of(given().head("/v1/jobs/{type}/{id}", type, "missing"),
                given().head("/v1/jobs/{type}?limit=0", type), given().head("/v1/no/such/thing"))) {
            assertTrue(response.statusCode() >= 400, response.getStatusLine());
            assertEquals(List.of(Problems.MEDIA_TYPE), response.headers().getValues("Content-Type"),
                    response.getStatusLine());
        }
        Api.put(type, "j", "{}").statusCode(201);
        Response found = given().head("/v1/jobs/{type}/{id}", type, "j");
        assertEquals(200, found.statusCode());
        assertTrue(found.contentType().startsWith("application/json"), found.contentType());
    }

    /** {@code typeEnd}: how the document's {@code type} ends, or null where any type will do. */
    private static void check(Response response, int status, String typeEnd) {
        String what = response.getStatusLine() + " " + response.asString();
        assertEquals(status, response.statusCode(), what);
        List<String> types = response.headers().getValues("Content-Type");
        assertEquals(List.of(Problems.MEDIA_TYPE), types, what);
        assertEquals(status, response.jsonPath().getInt("status"), what);
        String problemType = response.jsonPath().getString("type");
        assertTrue(problemType != null && (typeEnd == null || problemType.endsWith(typeEnd)), what);
    }
}
