package io.jobfoundry.service;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

@QuarkusTest
class HealthTest {

    @Test
    void readyWhenTheStoreAnswers() {
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'store' }.status", equalTo("UP"))
                .body("checks.find { it.name == 'store' }.data.store", equalTo(storeKind()));
    }

    /** Probes need no token: what they answer names the kind of store, never its file or cluster file. */
    @Test
    void theOpenHealthDocumentsDoNotNameTheStoresFile() {
        for (String check : new String[] {"/q/health", "/q/health/ready", "/q/health/live"}) {
            String body = given().when().get(check).then().extract().asString();
            assertFalse(body.contains(".db") || body.contains("cluster"), check + " shows " + body);
        }
        given().when().get("/q/health/live").then()
                .body("checks.find { it.name == 'store-usable' }.data.store", equalTo(storeKind()));
    }

    private static String storeKind() {
        return ConfigProvider.getConfig().getOptionalValue("jobfoundry.store", String.class).orElse("embedded");
    }

    @Test
    void alive() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void startedOnceStartupIsComplete() {
        given().when().get("/q/health/started").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'started' }.status", equalTo("UP"));
    }
}
