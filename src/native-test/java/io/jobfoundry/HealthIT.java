package io.jobfoundry;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The packaged application (the jar here, the native executable where GraalVM exists). */
@QuarkusIntegrationTest
class HealthIT {

    @Test
    void thePackagedApplicationCreatesItsStoreAndIsReady() {
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"));
        assertTrue(Files.exists(Path.of("target/it-stores/jobfoundry.db")), "the embedded store file was created");
    }
}
