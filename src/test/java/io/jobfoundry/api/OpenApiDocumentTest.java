package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The served OpenAPI document against the application itself. The operations the application
 * serves are read off the JAX-RS resource classes by reflection, so a new endpoint without
 * documentation, or documentation of an endpoint that is gone, fails here. The members each
 * request body documents are compared with the members the call accepts, which the call itself
 * names when refusing an unknown one.
 */
@QuarkusTest
class OpenApiDocumentTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> HTTP_METHODS = Set.of("get", "put", "post", "delete", "patch", "head",
            "options", "trace");
    private static final String PROBLEM = "application/problem+json";

    /**
     * The error answers of each operation, from API.md and docs/api.md. Every served operation must
     * be listed: a new one needs its errors decided, not guessed.
     */
    private static final Map<String, Set<Integer>> ERRORS = Map.ofEntries(
            Map.entry("POST /v1/jobs/{type}", Set.of(400, 413, 415, 503)),
            Map.entry("GET /v1/jobs/{type}", Set.of(400, 503)),
            Map.entry("GET /v1/jobs", Set.of(400, 503)),
            Map.entry("POST /v1/bulk", Set.of(400, 413, 415, 503)),
            Map.entry("PUT /v1/jobs/{type}/{id}", Set.of(400, 413, 415, 503)),
            Map.entry("GET /v1/jobs/{type}/{id}", Set.of(400, 404, 503)),
            Map.entry("PATCH /v1/jobs/{type}/{id}", Set.of(400, 404, 409, 413, 415, 503)),
            Map.entry("DELETE /v1/jobs/{type}/{id}", Set.of(400, 404, 413, 415, 503)),
            Map.entry("GET /v1/jobs/{type}/{id}/events", Set.of(400, 404, 503)),
            Map.entry("POST /v1/jobs/{type}/{id}/cancel", Set.of(400, 404, 413, 415, 503)),
            Map.entry("POST /v1/jobs/{type}/{id}/resubmit", Set.of(400, 404, 409, 413, 415, 503)),
            Map.entry("POST /v1/jobs/{type}/{id}/heartbeat", Set.of(400, 409, 413, 415, 503)),
            Map.entry("POST /v1/jobs/{type}/{id}/finish", Set.of(400, 409, 413, 415, 503)),
            Map.entry("POST /v1/accept", Set.of(400, 413, 415, 503)),
            Map.entry("POST /v1/jobs", Set.of(400, 409, 413, 415, 503)),
            Map.entry("POST /v1/finish", Set.of(400, 413, 415, 503)),
            Map.entry("POST /v1/heartbeat", Set.of(400, 413, 415, 503)),
            Map.entry("GET /v1/types", Set.of(503)),
            Map.entry("GET /v1/types/{type}", Set.of(400, 404, 503)),
            Map.entry("PUT /v1/types/{type}", Set.of(400, 413, 415, 503)),
            Map.entry("DELETE /v1/types/{type}", Set.of(400, 404, 409, 413, 415, 503)),
            Map.entry("POST /v1/types/{type}/pause", Set.of(400, 413, 415, 503)),
            Map.entry("GET /v1/types/{type}/groups", Set.of(400, 404, 503)),
            Map.entry("POST /v1/types/{type}/resume", Set.of(400, 413, 415, 503)),
            Map.entry("POST /v1/repeat/preview", Set.of(400, 413, 415)),
            Map.entry("GET /v1/me", Set.of()));

    private static Map<String, Method> served;
    private static JsonNode document;

    /** Read once, in the first test: RestAssured knows the application's port only from then on. */
    @BeforeEach
    void readTheResourcesAndTheDocument() throws Exception {
        if (document != null) {
            return;
        }
        served = servedOperations();
        String json = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200)
                .extract().asString();
        document = JSON.readTree(json);
    }

    @Test
    void everyServedOperationIsDocumentedAndNothingElse() {
        assertFalse(served.isEmpty(), "no JAX-RS resources found");
        assertEquals(new TreeSet<>(served.keySet()), new TreeSet<>(documentedOperations().keySet()));
    }

    @Test
    void everyOperationHasAnIdASummaryATagAndASuccess() {
        Set<String> ids = new HashSet<>();
        documentedOperations().forEach((name, operation) -> {
            assertTrue(ids.add(operation.path("operationId").asText()), name + ": a unique operationId");
            assertFalse(operation.path("summary").asText().isBlank(), name + ": a summary");
            assertTrue(operation.path("tags").size() > 0, name + ": a tag");
            assertTrue(statuses(operation).stream().anyMatch(s -> s >= 200 && s < 300), name + ": a 2xx answer");
        });
    }

    @Test
    void everyOperationDocumentsItsErrors() {
        assertEquals(new TreeSet<>(served.keySet()), new TreeSet<>(ERRORS.keySet()),
                "decide the error answers of every served operation in ERRORS");
        documentedOperations().forEach((name, operation) -> {
            Set<Integer> errors = new TreeSet<>();
            statuses(operation).stream().filter(s -> s >= 400).forEach(errors::add);
            // Every operation answers 401 and 403 (a token missing, roles or types that do not allow
            // it, protected mode): SecurityDocs documents them on each, so ERRORS leaves them out.
            Set<Integer> expected = new TreeSet<>(ERRORS.get(name));
            expected.addAll(Set.of(401, 403));
            assertEquals(expected, errors, name);
            // Whatever the table says: a body can be malformed, too large or not JSON; a name in the path can be bad.
            if (operation.has("requestBody")) {
                assertTrue(errors.containsAll(Set.of(400, 413, 415)), name + " takes a body");
            }
            if (name.contains("{")) {
                assertTrue(errors.contains(400), name + " has path parameters");
            }
        });
    }

    @Test
    void everyErrorIsAProblemDocumentWithItsStatusInItsExamples() {
        documentedOperations().forEach((name, operation) -> operation.path("responses").fields().forEachRemaining(e -> {
            int status = Integer.parseInt(e.getKey());
            if (status < 400) {
                return;
            }
            JsonNode response = resolve(e.getValue());
            JsonNode content = response.path("content");
            assertEquals(List.of(PROBLEM), fieldNames(content), name + " " + status + ": only problem+json");
            JsonNode media = content.path(PROBLEM);
            assertTrue(isProblem(resolve(media.path("schema"))), name + " " + status + ": a Problem schema");
            List<JsonNode> examples = examples(media);
            assertFalse(examples.isEmpty(), name + " " + status + ": an example");
            for (JsonNode example : examples) {
                assertEquals(status, example.path("status").asInt(), name + " " + status + ": " + example);
                assertTrue(example.path("type").asText().startsWith("tag:jobfoundry.io,2026:problem/"), example.toString());
                assertFalse(example.path("detail").asText().isBlank(), example.toString());
            }
        }));
    }

    @Test
    void everyParameterOfAResourceMethodIsDocumented() {
        Map<String, JsonNode> operations = documentedOperations();
        served.forEach((name, method) -> {
            Set<String> documented = new TreeSet<>();
            for (JsonNode shown : operations.get(name).path("parameters")) {
                JsonNode parameter = resolve(shown); // a shared one is a reference to components
                documented.add(parameter.path("in").asText() + " " + parameter.path("name").asText());
                assertFalse(parameter.path("description").asText().isBlank(), name + ": " + parameter);
            }
            for (Parameter parameter : method.getParameters()) {
                String expected = null;
                if (parameter.getAnnotation(PathParam.class) != null) {
                    expected = "path " + parameter.getAnnotation(PathParam.class).value();
                } else if (parameter.getAnnotation(QueryParam.class) != null) {
                    expected = "query " + parameter.getAnnotation(QueryParam.class).value();
                } else if (parameter.getAnnotation(HeaderParam.class) != null
                        && !parameter.getAnnotation(HeaderParam.class).value().equals(HttpHeaders.CONTENT_TYPE)) {
                    expected = "header " + parameter.getAnnotation(HeaderParam.class).value();
                }
                if (expected != null) {
                    assertTrue(documented.contains(expected), name + " documents " + expected + ": " + documented);
                }
            }
        });
    }

    /**
     * Each request body schema lists exactly the members the call takes (and, nested, the members
     * of its object members), and the members it requires are the ones the call asks for.
     */
    @Test
    void requestBodiesListExactlyTheMembersTheCallsTake() {
        Map<String, JsonNode> operations = documentedOperations();
        String type = Api.type("openapi");
        for (Map.Entry<String, JsonNode> entry : operations.entrySet()) {
            JsonNode body = entry.getValue().path("requestBody");
            if (body.isMissingNode()) {
                continue;
            }
            String name = entry.getKey();
            JsonNode media = resolve(body).path("content").path("application/json");
            assertTrue(media.isObject(), name + ": an application/json body");
            assertFalse(examples(media).isEmpty(), name + ": a request example");
            JsonNode schema = resolve(media.path("schema"));
            String method = name.substring(0, name.indexOf(' '));
            String path = name.substring(name.indexOf(' ') + 1).replace("{type}", type).replace("{id}", "no-such-job");
            assertMembers(name, method, path, "", schema);
            if (schema.path("required").size() > 0) {
                Response answer = send(method, path, "{}");
                assertEquals(400, answer.statusCode(), name + " without its required members");
                assertTrue(contains(schema.path("required"), answer.path("field")),
                        name + ": {} is refused for a documented required member, not " + answer.asString());
            }
        }
    }

    private void assertMembers(String name, String method, String path, String prefix, JsonNode schema) {
        Set<String> documented = new TreeSet<>(fieldNames(schema.path("properties")));
        String probe = "zzUndocumented";
        ObjectNode body = JSON.createObjectNode();
        ObjectNode innermost = body;
        for (String part : prefix.isEmpty() ? new String[0] : prefix.split("\\.")) {
            innermost = innermost.putObject(part);
        }
        innermost.put(probe, 1);
        Response answer = send(method, path, body.toString());
        assertEquals(400, answer.statusCode(), name + ": " + answer.asString());
        String field = prefix.isEmpty() ? probe : prefix + "." + probe;
        assertEquals(field, answer.path("field"), answer.asString());
        String detail = answer.path("detail");
        Matcher expected = Pattern.compile("expected (.*)$").matcher(detail);
        Set<String> taken = new TreeSet<>();
        if (expected.find()) {
            taken.addAll(Arrays.asList(expected.group(1).split(", ")));
        } else {
            assertTrue(detail.contains("this call takes no members"), detail);
        }
        assertEquals(taken, documented, name + (prefix.isEmpty() ? "" : " " + prefix) + ": documented vs taken");
        schema.path("properties").fields().forEachRemaining(member -> {
            JsonNode nested = resolve(member.getValue());
            if (nested.path("properties").size() > 0) {
                assertMembers(name, method, path, prefix.isEmpty() ? member.getKey() : prefix + "." + member.getKey(),
                        nested);
            }
        });
    }

    private static Response send(String method, String path, String body) {
        return given().contentType("application/json").body(body).request(method, path);
    }

    /** Every class of the application (not of the tests) with {@code @Path}: its resource methods. */
    private static Map<String, Method> servedOperations() throws Exception {
        java.nio.file.Path classes = java.nio.file.Path.of(
                JobsResource.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names;
        try (var files = java.nio.file.Files.walk(classes)) {
            names = files.map(f -> classes.relativize(f).toString()).filter(f -> f.endsWith(".class"))
                    .map(f -> f.substring(0, f.length() - ".class".length()).replace(java.io.File.separatorChar, '.'))
                    .toList();
        }
        Map<String, Method> operations = new TreeMap<>();
        for (String name : names) {
            Class<?> type = Class.forName(name, false, JobsResource.class.getClassLoader());
            if (type.getAnnotation(Path.class) == null) {
                continue;
            }
            String base = type.getAnnotation(Path.class).value();
            for (Method method : type.getMethods()) {
                String verb = httpMethod(method);
                if (verb == null) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                String path = normalize(base + "/" + (sub == null ? "" : sub.value()));
                Method previous = operations.put(verb + " " + path, method);
                assertTrue(previous == null, "two methods serve " + verb + " " + path);
            }
        }
        return operations;
    }

    private static String httpMethod(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod verb = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (verb != null) {
                return verb.value();
            }
        }
        return null;
    }

    /** One leading slash, none trailing or doubled; template regexes dropped ({id: .+} is {id}). */
    private static String normalize(String path) {
        String plain = path.replaceAll("\\{\\s*([^}:\\s]+)\\s*:[^}]*}", "{$1}").replaceAll("/+", "/");
        plain = plain.endsWith("/") && plain.length() > 1 ? plain.substring(0, plain.length() - 1) : plain;
        return plain.startsWith("/") ? plain : "/" + plain;
    }

    private static Map<String, JsonNode> documentedOperations() {
        Map<String, JsonNode> operations = new LinkedHashMap<>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            if (HTTP_METHODS.contains(op.getKey())) {
                operations.put(op.getKey().toUpperCase() + " " + path.getKey(), op.getValue());
            }
        }));
        return operations;
    }

    private static Set<Integer> statuses(JsonNode operation) {
        Set<Integer> statuses = new TreeSet<>();
        operation.path("responses").fieldNames().forEachRemaining(code -> statuses.add(Integer.parseInt(code)));
        return statuses;
    }

    /** Follows a local {@code $ref} (#/components/...) to what it names. */
    private static JsonNode resolve(JsonNode node) {
        while (node.has("$ref")) {
            String ref = node.path("$ref").asText();
            assertTrue(ref.startsWith("#/"), ref);
            JsonNode target = document.at(ref.substring(1));
            assertFalse(target.isMissingNode(), "dangling " + ref);
            node = target;
        }
        return node;
    }

    private static boolean isProblem(JsonNode schema) {
        if (schema.path("required").toString().equals("[\"type\",\"title\",\"status\",\"detail\"]")) {
            return true;
        }
        for (JsonNode part : schema.path("allOf")) {
            if (isProblem(resolve(part))) {
                return true;
            }
        }
        return false;
    }

    private static List<JsonNode> examples(JsonNode media) {
        if (media.has("example")) {
            return List.of(media.path("example"));
        }
        List<JsonNode> examples = new java.util.ArrayList<>();
        media.path("examples").forEach(example -> examples.add(resolve(example).path("value")));
        return examples;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    private static boolean contains(JsonNode array, Object value) {
        for (JsonNode item : array) {
            if (item.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void swaggerUiIsServed() {
        given().get("/q/swagger-ui/").then().statusCode(200);
        assertNotNull(document.path("info").path("version").textValue(), "the document carries the app's version");
    }
}
