package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobfoundry.CapturedLog;
import io.jobfoundry.kv.RetriesExhaustedException;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.StoreLimitException;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.Operation;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * The answers to the server's own failures: a store busy or out of reach (503), a store broken until
 * restart and bugs (500), never the details of either.
 */
@QuarkusTest
class FailuresTest {

    /** Exists only in the test application (and not in its OpenAPI document): throws what the engine might. */
    @Path("/test-only/failures")
    @PermitAll // open like a contract endpoint without tokens; every application method needs a role rule
    public static class FailingResource {

        @GET
        @Path("store")
        @Operation(hidden = true)
        public String store() {
            throw new RetriesExhaustedException(100, new RetryableStoreException(
                    RetryableStoreException.Reason.CONFLICT, "embedded:test", null));
        }

        @GET
        @Path("broken-store")
        @Operation(hidden = true)
        public String brokenStore() {
            throw new StoreException("the embedded store could not sync its log to disk (secret path)", "embedded:test",
                    null);
        }

        @GET
        @Path("too-large")
        @Operation(hidden = true)
        public String tooLarge() {
            throw new StoreLimitException(StoreLimitException.Limit.TRANSACTION_SIZE, 12_000_000, "embedded:test");
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

    /** Retrying cannot help a store that serves nothing until a restart: not a 503, and logged once, not per request. */
    @Test
    void aStoreBrokenUntilRestartIs500AndLoggedOnce() {
        try (CapturedLog log = CapturedLog.of(ProblemMappers.class)) {
            for (int i = 0; i < 3; i++) {
                given().get("/test-only/failures/broken-store").then().statusCode(500)
                        .contentType(startsWith("application/problem+json")).header("Retry-After", nullValue())
                        .body("type", equalTo("tag:jobfoundry.io,2026:problem/store-failed"))
                        .body("detail", not(containsString("secret")));
            }
            assertEquals(1, log.messagesAtLeast(Level.SEVERE).size(), log.messagesAtLeast(Level.FINEST).toString());
        }
    }

    /** A request that writes more than a store transaction holds is the client's to split: 413, not a store failure. */
    @Test
    void aRequestTooLargeForOneTransactionIs413() {
        given().get("/test-only/failures/too-large").then().statusCode(413)
                .contentType(startsWith("application/problem+json"))
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/data-too-large"))
                .body("detail", containsString("fewer jobs per batch"));
    }

    @Test
    void aBugIs500WithoutItsDetails() {
        given().get("/test-only/failures/bug").then().statusCode(500)
                .contentType(startsWith("application/problem+json"))
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/internal-error"))
                .body("detail", not(containsString("secret")));
    }
}
