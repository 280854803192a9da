package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The service's whole log (start included, written to a file by {@link TokensProfile}) names
 * tokens only by name: no token and no hash appears, not even of a refused token, while the audit
 * line of a destructive call names who made it.
 */
@QuarkusTest
@TestProfile(TokensProfile.class)
class SecretsInLogsTest {

    @Test
    void noTokenOrHashIsLoggedAndDestructiveCallsAreAuditedByName() throws Exception {
        String type = Api.type("audited");
        String refused = "refused-token-4f1d9c";
        given().auth().oauth2(refused).get("/v1/types").then().statusCode(401);
        given().header("Authorization", "Basic " + refused).get("/v1/types").then().statusCode(401);
        given().auth().oauth2(TokensProfile.PRODUCER).contentType(ContentType.JSON).body("{}")
                .put("/v1/jobs/{type}/{id}", type, "gone").then().statusCode(201);
        given().auth().oauth2(TokensProfile.PRODUCER).delete("/v1/jobs/{type}/{id}", type, "gone").then().statusCode(204);
        given().auth().oauth2(TokensProfile.ADMIN).post("/v1/types/{type}/pause", type).then().statusCode(200);
        given().auth().oauth2(TokensProfile.VIEWER).delete("/v1/jobs/{type}/{id}", type, "x").then().statusCode(403);

        String log = Files.readString(Path.of(TokensProfile.LOG_FILE));
        assertTrue(log.contains("token(s) configured"), "the log file holds the start: " + log.length() + " chars");
        for (Map.Entry<String, String> token : TokensProfile.SECRETS.entrySet()) {
            assertFalse(log.contains(token.getValue()), "the token of " + token.getKey() + " is in the log");
            String hex = TokensProfile.hash(token.getValue()).substring("sha256:".length());
            assertFalse(log.contains(hex.substring(0, 16)), "the hash of " + token.getKey() + " is in the log");
        }
        assertFalse(log.contains(refused), "a refused token is in the log");
        assertTrue(log.contains("ci-producer removed job " + type + "/gone"), "the removal's audit line");
        assertTrue(log.contains("ci-admin paused type " + type), "the pause's audit line");
    }
}
