package io.jobfoundry.service;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

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
                .body("checks.find { it.name == 'store' }.data.store", startsWith(
                        onFdb() ? "FoundationDB (cluster file " : "embedded:"));
    }

    private static boolean onFdb() {
        return "fdb".equals(ConfigProvider.getConfig().getOptionalValue("jobfoundry.store", String.class).orElse(""));
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
