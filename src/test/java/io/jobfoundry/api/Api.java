package io.jobfoundry.api;

import static io.restassured.RestAssured.given;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Shorthands for the REST tests. Every test names its own types ({@link #type}): the application
 * and its store are shared by all test classes, and the store outlives the test run.
 */
final class Api {

    private Api() {
    }

    /**
     * Whether the suite runs on FoundationDB ({@code JOBFOUNDRY_STORE=fdb}, as docs/architecture.md
     * says how): the few assertions that hold for one store only ask.
     */
    static boolean onFdb() {
        return "fdb".equals(ConfigProvider.getConfig().getOptionalValue("jobfoundry.store", String.class).orElse(""));
    }

    /**
     * Sends {@code request} as written on a connection of its own (for what HTTP clients will not
     * send: a header twice, a malformed request line) and answers all the service wrote back.
     * The request should say {@code Connection: close}.
     */
    static String raw(String request) throws IOException {
        try (Socket socket = new Socket("localhost", RestAssured.port)) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A type name no other test (or earlier run) uses. */
    static String type(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static RequestSpecification json(String body) {
        return given().contentType(ContentType.JSON).body(body);
    }

    static ValidatableResponse put(String type, String id, String body) {
        return json(body).put("/v1/jobs/{type}/{id}", type, id).then();
    }

    static ValidatableResponse get(String type, String id) {
        return given().get("/v1/jobs/{type}/{id}", type, id).then();
    }

    /** Accepts the one job of {@code type} that must be due, and answers its lease. */
    static String acceptOne(String type) {
        return json("{\"types\":[\"" + type + "\"],\"worker\":\"test-worker\"}").post("/v1/accept").then()
                .statusCode(200).extract().path("[0].lease");
    }

    /** A job taken by {@link #accepted}: which one, and its lease. */
    record Taken(String id, String lease) {
    }

    /**
     * Accepts one job of {@code type}: the oldest on the embedded store, one of the oldest on
     * FoundationDB (docs/api.md), so a test with several due jobs learns which it got.
     */
    static Taken accepted(String type) {
        io.restassured.path.json.JsonPath job = json("{\"types\":[\"" + type + "\"],\"worker\":\"test-worker\"}")
                .post("/v1/accept").then().statusCode(200).extract().jsonPath();
        return new Taken(job.getString("[0].id"), job.getString("[0].lease"));
    }

    static ValidatableResponse heartbeat(String type, String id, String body) {
        return json(body).post("/v1/jobs/{type}/{id}/heartbeat", type, id).then();
    }

    static ValidatableResponse finish(String type, String id, String body) {
        return json(body).post("/v1/jobs/{type}/{id}/finish", type, id).then();
    }

    static String lease(String lease) {
        return "{\"lease\":\"" + lease + "\"}";
    }

    static String succeeded(String lease) {
        return "{\"lease\":\"" + lease + "\",\"outcome\":\"succeeded\"}";
    }
}
