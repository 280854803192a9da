package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
        given().auth().oauth2(TokensProfile.ADMIN).delete("/v1/types/{type}", type).then().statusCode(204);
        given().auth().oauth2(TokensProfile.VIEWER).delete("/v1/jobs/{type}/{id}", type, "x").then().statusCode(403);
        given().auth().oauth2(TokensProfile.ADMIN).contentType(ContentType.JSON)
                .body("{\"action\":\"cancel\",\"filter\":{\"type\":\"" + type + "\",\"state\":\"pending\","
                        + "\"group\":\"tenant-a\"}}")
                .post("/v1/bulk").then().statusCode(200);

        // Characters that would break or reorder an audit line on screen are written as escapes.
        String hidden = "line\u2028break\u202Eflip";
        given().auth().oauth2(TokensProfile.PRODUCER).contentType(ContentType.JSON).body("{}")
                .put("/v1/jobs/{type}/{id}", type, hidden).then().statusCode(201);
        given().auth().oauth2(TokensProfile.PRODUCER).delete("/v1/jobs/{type}/{id}", type, hidden).then().statusCode(204);
        // A confined token's bulk action says it was narrowed to the token's types.
        String confined = "email-audit-" + type;
        given().auth().oauth2(TokensProfile.EMAIL).contentType(ContentType.JSON)
                .body("{\"action\":\"cancel\",\"filter\":{\"type\":\"" + confined + "*\"}}")
                .post("/v1/bulk").then().statusCode(200);

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
        // In JSON logs its facts are fields too, for collectors to select on.
        com.fasterxml.jackson.databind.JsonNode pause = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                log.lines().filter(line -> line.contains("ci-admin paused type " + type)).findFirst().orElseThrow());
        assertEquals("jobfoundry.audit", pause.path("loggerName").asText(), pause.toString());
        assertEquals(Map.of("audit.caller", "ci-admin", "audit.action", "pause", "audit.type", type),
                Map.of("audit.caller", pause.path("mdc").path("audit.caller").asText(),
                        "audit.action", pause.path("mdc").path("audit.action").asText(),
                        "audit.type", pause.path("mdc").path("audit.type").asText()), pause.toString());
        assertFalse(pause.path("mdc").has("audit.job"), pause.toString());
        assertTrue(log.contains("ci-admin deleted type " + type), "the deletion's audit line");
        // The file's lines are JSON, where the group's quotes are escaped.
        assertTrue(log.lines().anyMatch(line -> line.contains("ci-admin ran bulk cancel on type " + type + " (state pending,"
                + " group ") && line.contains("tenant-a") && line.contains("): 0 matched, 0 changed")),
                "the bulk action's audit line, with what it filtered on");
        assertEquals(1, log.lines().filter(line -> line.contains("ci-admin ran bulk cancel") && line.contains(type))
                .count(), "one line per bulk action");
        // In the file's JSON, the escape's backslash is itself escaped.
        assertTrue(log.contains("ci-producer removed job " + type + "/line\\\\u2028break\\\\u202Eflip"),
                "the removal's audit line, its id's separator and override escaped");
        assertTrue(log.contains("email-team ran bulk cancel on type " + confined + "* within the token's types email*"),
                "the confined bulk action's audit line");
    }
}
