package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Every served endpoint × every caller (no token, an unknown token, each role, a token confined
 * to other types): allowed, {@code 401} or {@code 403}, as API.md's role table says. The endpoints
 * are read off the JAX-RS resources by reflection, so an endpoint without a rule in {@link #RULES}
 * fails here, and the message says what to add.
 */
@QuarkusTest
@TestProfile(TokensProfile.class)
class AuthMatrixTest {

    /** One request of an endpoint's rule: its body and the least role that may send it. */
    private record Case(String body, String role) {
    }

    private static final String ANY = "any token";
    /** Served without a token (@PermitAll): for pages that hold no data, such as a redirect to the dashboard. */
    private static final String PUBLIC = "no token needed";

    /**
     * API.md, "Authentication and authorization": the least role each call needs ({@link #ANY}:
     * every valid token). The roles include each other: admin all, producer and worker viewer.
     */
    private static final Map<String, List<Case>> RULES = Map.ofEntries(
            Map.entry("POST /v1/jobs/{type}", List.of(new Case("{}", "producer"))),
            Map.entry("GET /v1/jobs/{type}", List.of(new Case(null, "viewer"))),
            Map.entry("PUT /v1/jobs/{type}/{id}", List.of(new Case("{}", "producer"))),
            Map.entry("GET /v1/jobs/{type}/{id}", List.of(new Case(null, "viewer"))),
            Map.entry("PATCH /v1/jobs/{type}/{id}", List.of(new Case("{}", "producer"))),
            Map.entry("DELETE /v1/jobs/{type}/{id}", List.of(new Case(null, "producer"))),
            Map.entry("GET /v1/jobs/{type}/{id}/events", List.of(new Case(null, "viewer"))),
            Map.entry("POST /v1/jobs/{type}/{id}/cancel", List.of(new Case("{}", "producer"))),
            Map.entry("POST /v1/jobs/{type}/{id}/resubmit", List.of(new Case("{}", "producer"),
                    new Case("{\"lease\":\"not-a-lease\"}", "worker"))),
            Map.entry("POST /v1/jobs/{type}/{id}/heartbeat", List.of(new Case("{\"lease\":\"x\"}", "worker"))),
            Map.entry("POST /v1/jobs/{type}/{id}/finish",
                    List.of(new Case("{\"lease\":\"x\",\"outcome\":\"succeeded\"}", "worker"))),
            Map.entry("POST /v1/accept", List.of(new Case("{}", "worker"))),
            Map.entry("POST /v1/jobs", List.of(new Case("{}", "producer"))),
            Map.entry("POST /v1/finish", List.of(new Case("{}", "worker"))),
            Map.entry("POST /v1/heartbeat", List.of(new Case("{}", "worker"))),
            Map.entry("GET /v1/types", List.of(new Case(null, "viewer"))),
            Map.entry("GET /v1/types/{type}", List.of(new Case(null, "viewer"))),
            Map.entry("PUT /v1/types/{type}", List.of(new Case("{}", "admin"))),
            Map.entry("DELETE /v1/types/{type}", List.of(new Case(null, "admin"))),
            Map.entry("POST /v1/types/{type}/pause", List.of(new Case(null, "admin"))),
            Map.entry("POST /v1/types/{type}/resume", List.of(new Case(null, "admin"))),
            Map.entry("POST /v1/repeat/preview", List.of(new Case("{}", "viewer"))),
            Map.entry("GET /v1/me", List.of(new Case(null, ANY))),
            Map.entry("GET /v1/jobs", List.of(new Case(null, "viewer"))),
            Map.entry("POST /v1/bulk", List.of(new Case("{}", "admin"))),
            Map.entry("GET /v1/types/{type}/groups", List.of(new Case(null, "viewer"))));

    /** The effective roles of each configured token, and its secret. */
    private static final Map<String, Set<String>> ROLES = Map.of(
            TokensProfile.VIEWER, Set.of("viewer"),
            TokensProfile.PRODUCER, Set.of("viewer", "producer"),
            TokensProfile.WORKER, Set.of("viewer", "worker"),
            TokensProfile.ADMIN, Set.of("viewer", "producer", "worker", "admin"));

    private final AtomicInteger ids = new AtomicInteger();

    @Test
    void everyServedEndpointHasARule() throws Exception {
        Set<String> served = servedEndpoints().keySet();
        List<String> missing = new ArrayList<>();
        for (String endpoint : served) {
            if (!RULES.containsKey(endpoint)) {
                missing.add(endpoint);
            }
        }
        if (!missing.isEmpty()) {
            fail("endpoints without an access rule: " + missing + ". For each, put the least role API.md's role table"
                    + " gives it on the resource method (@RolesAllowed(Role.VIEWER_NAME) for a GET, PRODUCER_NAME,"
                    + " WORKER_NAME or ADMIN_NAME, e.g. ADMIN_NAME for POST /v1/bulk; @Authenticated for every token, ANY"
                    + " here; @PermitAll for a page with no data, PUBLIC here),"
                    + " reach jobs through CallerJobs.jobs() so the token's types apply, and add the same role here,"
                    + " e.g. Map.entry(\"GET /v1/jobs\", List.of(new Case(null, \"viewer\"))).");
        }
        assertEquals(new TreeSet<>(served), new TreeSet<>(RULES.keySet()), "RULES names an endpoint no longer served");
    }

    @Test
    void eachRoleIsAllowedExactlyWhatItsRuleSays() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (String endpoint : servedEndpoints().keySet()) {
            for (Case rule : RULES.getOrDefault(endpoint, List.of())) {
                String type = Api.type("mx");
                int anonymous = rule.role().equals(PUBLIC) ? 0 : 401;
                expect(wrong, endpoint, rule, null, type, anonymous);
                expect(wrong, endpoint, rule, "not-a-configured-token", type, anonymous);
                for (Map.Entry<String, Set<String>> token : ROLES.entrySet()) {
                    boolean allowed = rule.role().equals(ANY) || rule.role().equals(PUBLIC)
                            || token.getValue().contains(rule.role());
                    expect(wrong, endpoint, rule, token.getKey(), type, allowed ? 0 : 403);
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    /** The confined admin: every call on a type outside {@code email*} is 403, on its own types allowed. */
    @Test
    void aConfinedTokenIsRefusedOnOtherTypesOnEveryEndpointWithAType() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (String endpoint : servedEndpoints().keySet()) {
            if (!endpoint.contains("{type}")) {
                continue;
            }
            for (Case rule : RULES.getOrDefault(endpoint, List.of())) {
                expect(wrong, endpoint, rule, TokensProfile.EMAIL, Api.type("billing"), 403);
                expect(wrong, endpoint, rule, TokensProfile.EMAIL, Api.type("email"), 0);
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void refusalsAreProblemDocumentsThatQuoteNoToken() {
        given().get("/v1/types").then().statusCode(401).contentType("application/problem+json")
                .header("WWW-Authenticate", "Bearer realm=\"jobfoundry\"")
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/unauthorized"));
        String unknown = "this-token-is-not-configured";
        String body = given().auth().oauth2(unknown).get("/v1/types").then().statusCode(401)
                .contentType("application/problem+json").extract().asString();
        assertTrue(!body.contains(unknown), body);
        given().auth().oauth2(TokensProfile.VIEWER).delete("/v1/jobs/{type}/x", Api.type("mx")).then().statusCode(403)
                .contentType("application/problem+json")
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/forbidden"));
        // Health stays open for probes; metrics need viewer.
        given().get("/q/health/ready").then().statusCode(200);
        given().get("/q/metrics").then().statusCode(401).contentType("application/problem+json");
        given().auth().oauth2(TokensProfile.VIEWER).get("/q/metrics").then().statusCode(200);
    }

    /**
     * A refused request is counted under its path's template like a served one: a series per raw
     * path (type and id) would let anyone without a token grow the metrics without bound.
     */
    @Test
    void refusedRequestsAreCountedUnderTheirTemplate() {
        String type = Api.type("refused-series");
        given().get("/v1/jobs/{type}/a1", type).then().statusCode(401);
        given().auth().oauth2("this-token-is-not-configured").get("/v1/jobs/{type}/a2", type).then().statusCode(401);
        given().auth().oauth2(TokensProfile.VIEWER).delete("/v1/jobs/{type}/a3", type).then().statusCode(403);
        given().auth().oauth2(TokensProfile.EMAIL).get("/v1/jobs/{type}/a4", type).then().statusCode(403);
        given().auth().oauth2(TokensProfile.VIEWER).post("/v1/types/{type}/pause", type).then().statusCode(403);
        String metrics = given().auth().oauth2(TokensProfile.VIEWER).get("/q/metrics").then().statusCode(200)
                .extract().asString();
        assertTrue(metrics.lines().anyMatch(line -> line.startsWith("http_server_requests_seconds_count{")
                && line.contains("status=\"403\"") && line.contains("uri=\"/v1/jobs/{type}/{id}\"")), metrics);
        assertTrue(!metrics.contains(type), "a series of a raw path: "
                + metrics.lines().filter(line -> line.contains(type)).findFirst().orElse(""));
    }

    /**
     * Identities are resolved before routing (quarkus.http.auth.proactive): a token that is not
     * configured is refused on every path, the open ones included, while requests without a token
     * are served there as before.
     */
    @Test
    void anUnknownTokenIsRefusedOnOpenPathsToo() {
        String unknown = "this-token-is-not-configured";
        for (String open : List.of("/q/health/live", "/q/health/ready", "/ui/", "/q/openapi")) {
            given().get(open).then().statusCode(200);
            given().auth().oauth2(unknown).get(open).then().statusCode(401)
                    .contentType("application/problem+json")
                    .header("WWW-Authenticate", "Bearer realm=\"jobfoundry\"")
                    .body("type", equalTo("tag:jobfoundry.io,2026:problem/unauthorized"));
            given().auth().oauth2(TokensProfile.VIEWER).get(open).then().statusCode(200);
        }
    }

    /**
     * Of two Authorization headers the first decided, so a client's token outranked one a gateway
     * added after it: refused whichever comes first, and nothing changes.
     */
    @Test
    void aRequestWithTwoTokensIsRefusedWhicheverComesFirst() throws Exception {
        String type = Api.type("two-tokens");
        for (String[] tokens : new String[][] {{TokensProfile.VIEWER, TokensProfile.ADMIN},
                {TokensProfile.ADMIN, TokensProfile.VIEWER}, {TokensProfile.ADMIN, "not-a-token"}}) {
            String answer = Api.raw("POST /v1/types/" + type + "/pause HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + tokens[0] + "\r\nAuthorization: Bearer " + tokens[1] + "\r\n"
                    + "Connection: close\r\n\r\n");
            assertEquals("HTTP/1.1 400", answer.substring(0, 12), answer);
            assertTrue(answer.contains("a request has one Authorization header, not 2"), answer);
            assertFalse(answer.contains(tokens[0]) || answer.contains(tokens[1]), answer);
        }
        given().auth().oauth2(TokensProfile.ADMIN).get("/v1/types/{type}", type).then().statusCode(404);
    }

    @Test
    void meNamesTheTokenItsRolesAndTypes() {
        given().auth().oauth2(TokensProfile.PRODUCER).get("/v1/me").then().statusCode(200)
                .body("name", equalTo("ci-producer")).body("roles", equalTo(List.of("viewer", "producer")))
                .body("types", equalTo(null));
        given().auth().oauth2(TokensProfile.EMAIL).get("/v1/me").then().statusCode(200)
                .body("name", equalTo("email-team"))
                .body("roles", equalTo(List.of("viewer", "producer", "worker", "admin")))
                .body("types", equalTo(List.of("email*")));
    }

    /** Expected 0: anything but 401 and 403 (the call went past the checks). */
    private void expect(List<String> wrong, String endpoint, Case rule, String token, String type, int expected) {
        String path = endpoint.substring(endpoint.indexOf(' ') + 1).replace("{type}", type)
                .replace("{id}", "m-" + ids.incrementAndGet());
        String verb = endpoint.substring(0, endpoint.indexOf(' '));
        RequestSpecification request = given();
        if (token != null) {
            request = request.auth().oauth2(token);
        }
        if (rule.body() != null) {
            request = request.contentType(ContentType.JSON).body(rule.body());
        }
        Response response = request.request(verb, path);
        int status = response.statusCode();
        boolean ok = expected == 0 ? status != 401 && status != 403 : status == expected;
        if (!ok) {
            wrong.add(endpoint + " body " + rule.body() + " with " + (token == null ? "no token" : name(token)) + " on "
                    + type + ": expected " + (expected == 0 ? "allowed" : expected) + ", was " + status + " "
                    + response.asString());
        }
        if (expected != 0 && !"application/problem+json".equals(response.contentType())) {
            wrong.add(endpoint + ": a " + status + " must be problem+json, was " + response.contentType());
        }
    }

    private static String name(String token) {
        return TokensProfile.SECRETS.entrySet().stream().filter(e -> e.getValue().equals(token)).map(Map.Entry::getKey)
                .findFirst().orElse("an unknown token");
    }

    /** "VERB /path" of every JAX-RS resource method in the application's classes. */
    static Map<String, Method> servedEndpoints() throws Exception {
        java.nio.file.Path classes = java.nio.file.Path.of(
                JobsResource.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names;
        try (var files = java.nio.file.Files.walk(classes)) {
            names = files.map(f -> classes.relativize(f).toString()).filter(f -> f.endsWith(".class"))
                    .map(f -> f.substring(0, f.length() - ".class".length()).replace(java.io.File.separatorChar, '.'))
                    .toList();
        }
        Map<String, Method> endpoints = new TreeMap<>();
        for (String name : names) {
            Class<?> type = Class.forName(name, false, JobsResource.class.getClassLoader());
            Path base = type.getAnnotation(Path.class);
            if (base == null) {
                continue;
            }
            for (Method method : type.getMethods()) {
                String verb = null;
                for (Annotation annotation : method.getAnnotations()) {
                    HttpMethod http = annotation.annotationType().getAnnotation(HttpMethod.class);
                    verb = http == null ? verb : http.value();
                }
                if (verb != null) {
                    Path sub = method.getAnnotation(Path.class);
                    String path = (base.value() + "/" + (sub == null ? "" : sub.value()))
                            .replaceAll("\\{\\s*([^}:\\s]+)\\s*:[^}]*}", "{$1}").replaceAll("/+", "/");
                    path = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
                    endpoints.put(verb + " " + (path.startsWith("/") ? path : "/" + path), method);
                }
            }
        }
        return new LinkedHashMap<>(endpoints);
    }
}
