package io.jobfoundry;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import org.junit.jupiter.api.Test;

/**
 * The packaged application (a production build) serves its API description: the document and
 * Swagger UI are not only a dev-mode convenience.
 */
@QuarkusIntegrationTest
class OpenApiIT {

    @Test
    void theDocumentAndSwaggerUiAreServed() {
        given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
                .body("info.title", equalTo("Jobfoundry API"))
                .body("paths.'/v1/accept'.post.operationId", equalTo("accept"))
                .body("components.responses.Halt", notNullValue());
        given().get("/q/swagger-ui/").then().statusCode(200).body(containsString("swagger"));
    }
}
