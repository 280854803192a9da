package io.jobfoundry;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The main flow against the packaged application: add, accept, heartbeat, finish, read back. */
@QuarkusIntegrationTest
class JobFlowIT {

    @Test
    void aJobGoesFromPendingThroughRunningToSucceeded() {
        String type = "it-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType(ContentType.JSON).body("{\"data\":{\"to\":\"a@example.org\"}}")
                .put("/v1/jobs/{type}/{id}", type, "welcome").then().statusCode(201).body("state", equalTo("pending"));
        String lease = given().contentType(ContentType.JSON).body("{\"types\":[\"" + type + "\"],\"worker\":\"it\"}")
                .post("/v1/accept").then().statusCode(200).body("[0].state", equalTo("running"))
                .extract().path("[0].lease");
        given().contentType(ContentType.JSON).body("{\"lease\":\"" + lease + "\",\"data\":{\"progress\":1}}")
                .post("/v1/jobs/{type}/{id}/heartbeat", type, "welcome").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"lease\":\"" + lease + "\",\"outcome\":\"succeeded\"}")
                .post("/v1/jobs/{type}/{id}/finish", type, "welcome").then().statusCode(200)
                .body("result", equalTo("succeeded"));
        given().get("/v1/jobs/{type}/{id}", type, "welcome").then().statusCode(200)
                .body("state", equalTo("finished")).body("data.progress", equalTo(1));
        given().contentType(ContentType.JSON).body("{\"lease\":\"" + lease + "\"}")
                .post("/v1/jobs/{type}/{id}/heartbeat", type, "welcome").then().statusCode(409)
                .body("reason", equalTo("lease-lost"));
    }
}
