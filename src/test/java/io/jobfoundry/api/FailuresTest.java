package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;

import io.jobfoundry.kv.StoreException;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.junit.jupiter.api.Test;

/** The answers to the server's own failures: the store (503) and bugs (500), never the details of either. */
@QuarkusTest
class FailuresTest {

    /** Exists only in the test application (and not in its OpenAPI document): throws what the engine might. */
    @Path("/test-only/failures")
    public static class FailingResource {

        @GET
        @Path("store")
        @Operation(hidden = true)
        public String store() {
            throw new StoreException("transaction failed after 100 attempts", "embedded:test", null);
        }

        @GET
        @Path("bug")
        @Operation(hidden = true)
        public String bug() {
            throw new IllegalStateException("secret internal detail");
        }
    }

    @Test
    void aStoreFailureIs503WithRetryAfter() {
        given().get("/test-only/failures/store").then().statusCode(503)
                .contentType(startsWith("application/problem+json")).header("Retry-After", "1")
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/store-unavailable"))
                .body("status", equalTo(503)).body("detail", containsString("may or may not"));
    }

    @Test
    void aBugIs500WithoutItsDetails() {
        given().get("/test-only/failures/bug").then().statusCode(500)
                .contentType(startsWith("application/problem+json"))
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/internal-error"))
                .body("detail", not(containsString("secret")));
    }
}
