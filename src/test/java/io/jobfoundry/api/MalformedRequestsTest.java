package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.CapturedLog;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.http.runtime.QuarkusErrorHandler;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A table of malformed requests: each is refused with its 4xx and a problem document, never a 500,
 * and none changes the jobs it names.
 */
@QuarkusTest
class MalformedRequestsTest {

    private static final String T = Api.type("malformed");
    private static final String JSON = "application/json";

    /** One malformed request: what it is, how it is sent, and the status and field it must get. */
    record Case(String what, String method, String path, String contentType, String body, int status, String field) {
        @Override
        public String toString() {
            return what;
        }
    }

    private static boolean prepared;

    @BeforeEach
    void jobsToAimAt() {
        if (prepared) {
            return;
        }
        prepared = true;
        // "j" stays pending; "r" is running. Both must be untouched by everything below.
        Api.put(T, "j", "{\"data\":{\"keep\":true}}").statusCode(201);
        Api.put(T, "r", "{}").statusCode(201);
        given().contentType(JSON).body("{\"scheduledAt\":\"2099-01-01T00:00:00Z\"}").patch("/v1/jobs/" + T + "/j")
                .then().statusCode(200);
        Api.acceptOne(T);
    }

    static Stream<Case> cases() {
        List<Case> c = new ArrayList<>();
        String jobs = "/v1/jobs/" + T;
        String job = jobs + "/j";
        // ---- the body as a whole
        c.add(new Case("truncated JSON", "PUT", job, JSON, "{\"data\":", 400, null));
        c.add(new Case("not JSON at all", "PUT", job, JSON, "data=1", 400, null));
        c.add(new Case("an array body", "PUT", job, JSON, "[]", 400, null));
        c.add(new Case("a null body", "PUT", job, JSON, "null", 400, null));
        c.add(new Case("a string body", "PUT", job, JSON, "\"x\"", 400, null));
        c.add(new Case("trailing tokens", "PUT", job, JSON, "{} {}", 400, null));
        c.add(new Case("comments", "PUT", job, JSON, "{/* c */}", 400, null));
        c.add(new Case("a duplicate member", "PUT", job, JSON, "{\"group\":\"a\",\"group\":\"b\"}", 400, null));
        c.add(new Case("an unknown member", "PUT", job, JSON, "{\"colour\":\"red\"}", 400, "colour"));
        c.add(new Case("id in the body", "POST", jobs, JSON, "{\"id\":\"x\"}", 400, "id"));
        c.add(new Case("a form body", "PUT", job, "application/x-www-form-urlencoded", "a=b", 415, null));
        c.add(new Case("a text body", "PUT", job, "text/plain", "{}", 415, null));
        c.add(new Case("a garbage content type", "PUT", job, "???", "{}", 400, null)); // not even a media type
        c.add(new Case("NaN", "PUT", job, JSON, "{\"maxAttempts\":NaN}", 400, null));
        c.add(new Case("nesting beyond 1000", "PUT", job, JSON,
                "{\"data\":" + "{\"a\":".repeat(1500) + "1" + "}".repeat(1501), 400, null));
        c.add(new Case("a number of 1001 digits", "PUT", job, JSON, "{\"data\":{\"n\":" + "9".repeat(1001) + "}}",
                400, null));
        c.add(new Case("a member name of 50001 characters", "PUT", job, JSON,
                "{\"data\":{\"" + "k".repeat(50_001) + "\":1}}", 400, null));
        // Exponents beyond what a decimal holds, in every member that takes a number.
        for (String number : List.of("1e2147483648", "1e-2147483649", "1e999999999999999999999999999999",
                "123456789e-9999999999999")) {
            c.add(new Case("data " + number, "PUT", job, JSON, "{\"data\":{\"a\":" + number + "}}", 400, "data"));
            c.add(new Case("POST data " + number, "POST", jobs, JSON, "{\"data\":{\"a\":[" + number + "]}}", 400,
                    "data"));
            c.add(new Case("maxAttempts " + number, "PUT", job, JSON, "{\"maxAttempts\":" + number + "}", 400,
                    "maxAttempts"));
            c.add(new Case("scheduledAt " + number, "PATCH", job, JSON, "{\"scheduledAt\":" + number + "}", 400,
                    "scheduledAt"));
            c.add(new Case("heartbeat data " + number, "POST", jobs + "/r/heartbeat", JSON,
                    "{\"lease\":\"x\",\"data\":{\"a\":" + number + "}}", 400, "data"));
            c.add(new Case("activityTimeout " + number, "PUT", "/v1/types/" + T + "x", JSON,
                    "{\"activityTimeout\":" + number + "}", 400, "activityTimeout"));
            c.add(new Case("backoff.base " + number, "PUT", "/v1/types/" + T + "x", JSON,
                    "{\"backoff\":{\"base\":" + number + "}}", 400, "backoff"));
            c.add(new Case("accept wait " + number, "POST", "/v1/accept", JSON,
                    "{\"types\":[\"x\"],\"wait\":" + number + "}", 400, "wait"));
            c.add(new Case("preview count " + number, "POST", "/v1/repeat/preview", JSON,
                    "{\"repeat\":\"hourly\",\"count\":" + number + "}", 400, "count"));
        }
        // ---- job members
        c.add(new Case("data as an array", "PUT", job, JSON, "{\"data\":[1]}", 400, "data"));
        c.add(new Case("data as a string", "PUT", job, JSON, "{\"data\":\"{}\"}", 400, "data"));
        c.add(new Case("data as a number", "PUT", job, JSON, "{\"data\":1}", 400, "data"));
        c.add(new Case("data with a lone surrogate", "PUT", job, JSON, "{\"data\":{\"s\":\"\\ud800\"}}", 400, "data"));
        c.add(new Case("a key with a lone surrogate", "PUT", job, JSON, "{\"data\":{\"\\udc00\":1}}", 400, null));
        c.add(new Case("a group with a lone surrogate", "PUT", job, JSON, "{\"group\":\"\\ud800x\"}", 400, "group"));
        c.add(new Case("scheduledAt as words", "PUT", job, JSON, "{\"scheduledAt\":\"tomorrow\"}", 400,
                "scheduledAt"));
        c.add(new Case("scheduledAt null", "PUT", job, JSON, "{\"scheduledAt\":null}", 400, "scheduledAt"));
        c.add(new Case("scheduledAt a boolean", "PUT", job, JSON, "{\"scheduledAt\":true}", 400, "scheduledAt"));
        c.add(new Case("scheduledAt fractional seconds", "PUT", job, JSON, "{\"scheduledAt\":1.5}", 400,
                "scheduledAt"));
        c.add(new Case("scheduledAt 1e400", "PUT", job, JSON, "{\"scheduledAt\":1e400}", 400, "scheduledAt"));
        c.add(new Case("scheduledAt 1e999999999", "PUT", job, JSON, "{\"scheduledAt\":1e999999999}", 400,
                "scheduledAt"));
        c.add(new Case("scheduledAt a huge integer", "PUT", job, JSON,
                "{\"scheduledAt\":-99999999999999999999999999}", 400, "scheduledAt"));
        c.add(new Case("scheduledAt February 30", "PUT", job, JSON, "{\"scheduledAt\":\"2026-02-30T00:00:00Z\"}",
                400, "scheduledAt"));
        c.add(new Case("scheduledAt year 10000", "PUT", job, JSON, "{\"scheduledAt\":\"+10000-01-01T00:00:00Z\"}",
                400, "scheduledAt"));
        c.add(new Case("scheduledAt without offset", "PUT", job, JSON, "{\"scheduledAt\":\"2026-01-01T00:00:00\"}",
                400, "scheduledAt"));
        c.add(new Case("scheduledAt a leap second", "PUT", job, JSON, "{\"scheduledAt\":\"2016-12-31T23:59:60Z\"}",
                400, "scheduledAt"));
        c.add(new Case("scheduledAt offset +25:00", "PUT", job, JSON,
                "{\"scheduledAt\":\"2026-01-01T00:00:00+25:00\"}", 400, "scheduledAt"));
        c.add(new Case("scheduledAt ten fraction digits", "PUT", job, JSON,
                "{\"scheduledAt\":\"2026-01-01T00:00:00.1234567891Z\"}", 400, "scheduledAt"));
        c.add(new Case("priority urgent", "PUT", job, JSON, "{\"priority\":\"urgent\"}", 400, "priority"));
        c.add(new Case("priority upper case", "PUT", job, JSON, "{\"priority\":\"HIGH\"}", 400, "priority"));
        c.add(new Case("priority null", "PUT", job, JSON, "{\"priority\":null}", 400, "priority"));
        c.add(new Case("priority a number", "PUT", job, JSON, "{\"priority\":1}", 400, "priority"));
        c.add(new Case("group a number", "PUT", job, JSON, "{\"group\":5}", 400, "group"));
        c.add(new Case("group null", "PUT", job, JSON, "{\"group\":null}", 400, "group"));
        c.add(new Case("group too long", "PUT", job, JSON, "{\"group\":\"" + "g".repeat(257) + "\"}", 400, "group"));
        c.add(new Case("group with a control", "PUT", job, JSON, "{\"group\":\"a\\u0001\"}", 400, "group"));
        c.add(new Case("repeat nonsense", "PUT", job, JSON, "{\"repeat\":\"every day\"}", 400, "repeat"));
        c.add(new Case("repeat a number", "PUT", job, JSON, "{\"repeat\":5}", 400, "repeat"));
        c.add(new Case("repeat empty", "PUT", job, JSON, "{\"repeat\":\"\"}", 400, "repeat"));
        c.add(new Case("repeat going back in time", "PUT", job, JSON, "{\"repeat\":\"FINISHED, -1 HOUR\"}", 400,
                "repeat"));
        c.add(new Case("repeat that stalls after noon", "PUT", job, JSON,
                "{\"repeat\":\"FINISHED, START OF DAY, +12 HOURS\"}", 400, "repeat"));
        c.add(new Case("maxAttempts 0", "PUT", job, JSON, "{\"maxAttempts\":0}", 400, "maxAttempts"));
        c.add(new Case("maxAttempts 1.5", "PUT", job, JSON, "{\"maxAttempts\":1.5}", 400, "maxAttempts"));
        c.add(new Case("maxAttempts text", "PUT", job, JSON, "{\"maxAttempts\":\"3\"}", 400, "maxAttempts"));
        c.add(new Case("maxAttempts 1e10", "PUT", job, JSON, "{\"maxAttempts\":1e10}", 400, "maxAttempts"));
        c.add(new Case("maxAttempts null", "PUT", job, JSON, "{\"maxAttempts\":null}", 400, "maxAttempts"));
        c.add(new Case("POST with bad data", "POST", jobs, JSON, "{\"data\":[]}", 400, "data"));
        c.add(new Case("PATCH with bad data", "PATCH", job, JSON, "{\"data\":true}", 400, "data"));
        c.add(new Case("PATCH unknown member", "PATCH", job, JSON, "{\"state\":\"finished\"}", 400, "state"));
        // ---- names in the path
        c.add(new Case("a type starting with '-'", "PUT", "/v1/jobs/-bad/x", JSON, "{}", 400, "type"));
        c.add(new Case("a type with '!'", "GET", "/v1/jobs/bad!/x", null, null, 400, "type"));
        c.add(new Case("a type of 65 characters", "PUT", "/v1/jobs/" + "t".repeat(65) + "/x", JSON, "{}", 400,
                "type"));
        c.add(new Case("an id of 257 characters", "PUT", jobs + "/" + "i".repeat(257), JSON, "{}", 400, "id"));
        c.add(new Case("an id with a control", "PUT", jobs + "/a%01b", JSON, "{}", 400, "id"));
        c.add(new Case("an id with NUL", "GET", jobs + "/a%00b", null, null, 400, "id"));
        c.add(new Case("an id with an encoded slash", "GET", jobs + "/a%2Fb", null, null, 400, "id"));
        // Percent-encoded bytes that are not UTF-8 would decode to U+FFFD: a different name than sent.
        for (String bad : List.of("%FF", "a%C3", "%ED%A0%80", "%C0%AF")) {
            c.add(new Case("an id of " + bad, "PUT", jobs + "/" + bad, JSON, "{}", 400, "id"));
            c.add(new Case("GET an id of " + bad, "GET", jobs + "/" + bad, null, null, 400, "id"));
            c.add(new Case("heartbeat an id of " + bad, "POST", jobs + "/" + bad + "/heartbeat", JSON,
                    "{\"lease\":\"x\"}", 400, "id"));
            // Not the id PUT above: were that job created, its stream would never end.
            c.add(new Case("events of an id of " + bad, "GET", jobs + "/ev" + bad + "/events", null, null, 400,
                    "id"));
            c.add(new Case("DELETE an id of " + bad, "DELETE", jobs + "/" + bad, null, null, 400, "id"));
            c.add(new Case("a type of " + bad, "PUT", "/v1/types/" + bad, JSON, "{}", 400, "type"));
        }
        // An unencoded ';' starts JAX-RS matrix parameters, which would be dropped from the name.
        c.add(new Case("an id with a ';'", "PUT", job + ";x", JSON, "{\"group\":\"changed\"}", 400, "id"));
        c.add(new Case("PATCH an id with a ';'", "PATCH", job + ";x=1", JSON, "{\"group\":\"changed\"}", 400,
                "id"));
        c.add(new Case("cancel an id with a ';'", "POST", job + ";/cancel", JSON, "{}", 400, "id"));
        c.add(new Case("a type with a ';'", "POST", jobs + ";x=1", JSON, "{}", 400, "type"));
        c.add(new Case("a type with a ';' in the types", "PUT", "/v1/types/" + T + ";a=b", JSON,
                "{\"maxAttempts\":3}", 400, "type"));
        c.add(new Case("a ';' after accept", "POST", "/v1/accept;x", JSON, "{\"types\":[\"" + T + "\"]}", 400,
                null));
        c.add(new Case("a bad type in a listing", "GET", "/v1/jobs/b%20ad", null, null, 400, "type"));
        c.add(new Case("a bad type in the types", "PUT", "/v1/types/b%20ad", JSON, "{}", 400, "type"));
        c.add(new Case("a bad type in GET types", "GET", "/v1/types/b%20ad", null, null, 400, "type"));
        // ---- query parameters
        c.add(new Case("limit 0", "GET", jobs + "?limit=0", null, null, 400, "limit"));
        c.add(new Case("limit 1001", "GET", jobs + "?limit=1001", null, null, 400, "limit"));
        c.add(new Case("limit words", "GET", jobs + "?limit=ten", null, null, 400, "limit"));
        c.add(new Case("limit huge", "GET", jobs + "?limit=99999999999999999999999", null, null, 400, "limit"));
        c.add(new Case("state done", "GET", jobs + "?state=done", null, null, 400, "state"));
        c.add(new Case("a forged cursor", "GET", jobs + "?cursor=!!!", null, null, 400, "cursor"));
        // Base64url of "/", which no id holds: the cursor's form is checked, not its origin (docs/api.md).
        c.add(new Case("a cursor of a slash", "GET", jobs + "?cursor=Lw", null, null, 400, "cursor"));
        c.add(new Case("a cursor of a control", "GET", jobs + "?cursor=AQ", null, null, 400, "cursor"));
        // Not UTF-8 ("\u00FF\u00FE" bytes), padded, and "ab" with stray low bits: all decode, none
        // is a cursor the service would write.
        c.add(new Case("a cursor of bytes", "GET", jobs + "?cursor=__4", null, null, 400, "cursor"));
        c.add(new Case("a padded cursor", "GET", jobs + "?cursor=YWI%3D", null, null, 400, "cursor"));
        c.add(new Case("a cursor with stray bits", "GET", jobs + "?cursor=YWL", null, null, 400, "cursor"));
        c.add(new Case("waitFor done", "GET", job + "?waitFor=done", null, null, 400, "waitFor"));
        c.add(new Case("timeout negative", "GET", job + "?waitFor=running&timeout=-1", null, null, 400, "timeout"));
        c.add(new Case("timeout over the limit", "GET", job + "?waitFor=running&timeout=300001", null, null, 400,
                "timeout"));
        c.add(new Case("timeout without waitFor", "GET", job + "?timeout=5", null, null, 400, "timeout"));
        // ---- accept
        c.add(new Case("accept without types", "POST", "/v1/accept", JSON, "{}", 400, "types"));
        c.add(new Case("accept without a body", "POST", "/v1/accept", null, null, 400, "types"));
        c.add(new Case("accept no types", "POST", "/v1/accept", JSON, "{\"types\":[]}", 400, "types"));
        c.add(new Case("accept by the engine's own pattern of two globs", "POST", "/v1/accept", JSON,
                "{\"types\":[\"" + T + "*&*x\"]}", 400, "types"));
        c.add(new Case("accept types a string", "POST", "/v1/accept", JSON, "{\"types\":\"x\"}", 400, "types"));
        c.add(new Case("accept types of numbers", "POST", "/v1/accept", JSON, "{\"types\":[1]}", 400, "types"));
        c.add(new Case("accept a bad pattern", "POST", "/v1/accept", JSON, "{\"types\":[\"a b\"]}", 400, "types"));
        c.add(new Case("accept types null", "POST", "/v1/accept", JSON, "{\"types\":null}", 400, "types"));
        c.add(new Case("accept max 0", "POST", "/v1/accept", JSON, "{\"types\":[\"x\"],\"max\":0}", 400, "max"));
        c.add(new Case("accept max 101", "POST", "/v1/accept", JSON, "{\"types\":[\"x\"],\"max\":101}", 400, "max"));
        c.add(new Case("accept wait negative", "POST", "/v1/accept", JSON, "{\"types\":[\"x\"],\"wait\":-1}", 400,
                "wait"));
        c.add(new Case("accept wait beyond the limit", "POST", "/v1/accept", JSON,
                "{\"types\":[\"x\"],\"wait\":300001}", 400, "wait"));
        c.add(new Case("accept wait fractional", "POST", "/v1/accept", JSON, "{\"types\":[\"x\"],\"wait\":1.5}", 400,
                "wait"));
        c.add(new Case("accept maxScheduledAt words", "POST", "/v1/accept", JSON,
                "{\"types\":[\"x\"],\"maxScheduledAt\":\"soon\"}", 400, "maxScheduledAt"));
        c.add(new Case("accept worker a number", "POST", "/v1/accept", JSON, "{\"types\":[\"x\"],\"worker\":1}", 400,
                "worker"));
        c.add(new Case("accept worker too long", "POST", "/v1/accept", JSON,
                "{\"types\":[\"x\"],\"worker\":\"" + "w".repeat(257) + "\"}", 400, "worker"));
        c.add(new Case("accept worker with a line break", "POST", "/v1/accept", JSON,
                "{\"types\":[\"x\"],\"worker\":\"host-1\\n2026-11-28 INFO [jobfoundry.audit] forged\"}", 400, "worker"));
        c.add(new Case("accept worker with an escape", "POST", "/v1/accept", JSON,
                "{\"types\":[\"x\"],\"worker\":\"\\u001b[31mhost\"}", 400, "worker"));
        c.add(new Case("accept unknown member", "POST", "/v1/accept", JSON, "{\"types\":[\"x\"],\"lease\":\"l\"}",
                400, "lease"));
        // ---- heartbeat, finish, resubmit, cancel
        String running = jobs + "/r";
        c.add(new Case("heartbeat without lease", "POST", running + "/heartbeat", JSON, "{}", 400, "lease"));
        c.add(new Case("heartbeat lease a number", "POST", running + "/heartbeat", JSON, "{\"lease\":1}", 400,
                "lease"));
        c.add(new Case("heartbeat lease null", "POST", running + "/heartbeat", JSON, "{\"lease\":null}", 400,
                "lease"));
        c.add(new Case("heartbeat data an array", "POST", running + "/heartbeat", JSON,
                "{\"lease\":\"x\",\"data\":[]}", 400, "data"));
        c.add(new Case("heartbeat unknown member", "POST", running + "/heartbeat", JSON,
                "{\"lease\":\"x\",\"outcome\":\"succeeded\"}", 400, "outcome"));
        c.add(new Case("finish without outcome", "POST", running + "/finish", JSON, "{\"lease\":\"x\"}", 400,
                "outcome"));
        c.add(new Case("finish outcome done", "POST", running + "/finish", JSON,
                "{\"lease\":\"x\",\"outcome\":\"done\"}", 400, "outcome"));
        c.add(new Case("finish error a number", "POST", running + "/finish", JSON,
                "{\"lease\":\"x\",\"outcome\":\"failed\",\"error\":500}", 400, "error"));
        c.add(new Case("finish without lease", "POST", running + "/finish", JSON, "{\"outcome\":\"failed\"}", 400,
                "lease"));
        c.add(new Case("resubmit scheduledAt words", "POST", job + "/resubmit", JSON,
                "{\"scheduledAt\":\"later\"}", 400, "scheduledAt"));
        c.add(new Case("resubmit lease null", "POST", job + "/resubmit", JSON, "{\"lease\":null}", 400, "lease"));
        // An empty lease is malformed wherever a lease goes, not a lease that was lost (409).
        c.add(new Case("heartbeat lease empty", "POST", running + "/heartbeat", JSON, "{\"lease\":\"\"}", 400,
                "lease"));
        c.add(new Case("finish lease empty", "POST", running + "/finish", JSON,
                "{\"lease\":\"\",\"outcome\":\"failed\"}", 400, "lease"));
        c.add(new Case("resubmit lease empty", "POST", running + "/resubmit", JSON, "{\"lease\":\"\"}", 400,
                "lease"));
        c.add(new Case("cancel with a member", "POST", job + "/cancel", JSON, "{\"why\":\"x\"}", 400, "why"));
        // Calls that take no body still read one that is sent: a malformed one does nothing.
        c.add(new Case("remove with a member", "DELETE", job, JSON, "{\"why\":\"x\"}", 400, "why"));
        c.add(new Case("remove with truncated JSON", "DELETE", job, JSON, "{garbage", 400, null));
        c.add(new Case("remove with a text body", "DELETE", job, "text/plain", "{garbage", 415, null));
        for (String call : List.of("pause", "resume")) {
            String path = "/v1/types/" + T + "/" + call;
            c.add(new Case(call + " with a member", "POST", path, JSON, "{\"paused\":true}", 400, "paused"));
            c.add(new Case(call + " with truncated JSON", "POST", path, JSON, "{\"paused\":true", 400, null));
            c.add(new Case(call + " with an array body", "POST", path, JSON, "[]", 400, null));
            c.add(new Case(call + " with a text body", "POST", path, "text/plain", "x", 415, null));
        }
        // ---- types and preview
        c.add(new Case("activityTimeout text", "PUT", "/v1/types/" + T + "x", JSON, "{\"activityTimeout\":\"30\"}",
                400, "activityTimeout"));
        c.add(new Case("activityTimeout negative", "PUT", "/v1/types/" + T + "x", JSON, "{\"activityTimeout\":-1}",
                400, "activityTimeout"));
        c.add(new Case("activityTimeout 1e100", "PUT", "/v1/types/" + T + "x", JSON, "{\"activityTimeout\":1e100}",
                400, "activityTimeout"));
        c.add(new Case("activityTimeout beyond a year", "PUT", "/v1/types/" + T + "x", JSON,
                "{\"activityTimeout\":40000000}", 400, "activityTimeout"));
        c.add(new Case("activityTimeout below a millisecond", "PUT", "/v1/types/" + T + "x", JSON,
                "{\"activityTimeout\":1.0001}", 400, "activityTimeout"));
        c.add(new Case("priorityScheme of one", "PUT", "/v1/types/" + T + "x", JSON, "{\"priorityScheme\":[1]}",
                400, "priorityScheme"));
        c.add(new Case("priorityScheme of text", "PUT", "/v1/types/" + T + "x", JSON,
                "{\"priorityScheme\":[\"2\",\"1\"]}", 400, "priorityScheme"));
        c.add(new Case("priorityScheme negative", "PUT", "/v1/types/" + T + "x", JSON,
                "{\"priorityScheme\":[-1,1]}", 400, "priorityScheme"));
        c.add(new Case("backoff a number", "PUT", "/v1/types/" + T + "x", JSON, "{\"backoff\":5}", 400, "backoff"));
        c.add(new Case("backoff.base text", "PUT", "/v1/types/" + T + "x", JSON, "{\"backoff\":{\"base\":\"5\"}}",
                400, "backoff.base"));
        c.add(new Case("type maxAttempts 1001", "PUT", "/v1/types/" + T + "x", JSON, "{\"maxAttempts\":1001}", 400,
                "maxAttempts"));
        c.add(new Case("type unknown member", "PUT", "/v1/types/" + T + "x", JSON, "{\"timeout\":5}", 400,
                "timeout"));
        c.add(new Case("preview without repeat", "POST", "/v1/repeat/preview", JSON, "{}", 400, "repeat"));
        c.add(new Case("preview of a repeat that stalls", "POST", "/v1/repeat/preview", JSON,
                "{\"repeat\":\"SCHEDULED, START OF DAY\"}", 400, "repeat"));
        c.add(new Case("preview repeat null", "POST", "/v1/repeat/preview", JSON, "{\"repeat\":null}", 400,
                "repeat"));
        c.add(new Case("preview count 0", "POST", "/v1/repeat/preview", JSON, "{\"repeat\":\"hourly\",\"count\":0}",
                400, "count"));
        c.add(new Case("preview bad time", "POST", "/v1/repeat/preview", JSON,
                "{\"repeat\":\"hourly\",\"finishedAt\":\"x\"}", 400, "finishedAt"));
        c.add(new Case("preview a huge number", "POST", "/v1/repeat/preview", JSON,
                "{\"repeat\":\"SCHEDULED, +99999999999999999999 SECONDS\"}", 400, "repeat"));
        // ---- HTTP itself
        c.add(new Case("an unknown path", "GET", "/v2/jobs", null, null, 404, null));
        c.add(new Case("an unknown path below jobs", "GET", job + "/nothing/here", null, null, 404, null));
        c.add(new Case("DELETE on accept", "DELETE", "/v1/accept", null, null, 405, null));
        c.add(new Case("GET on accept", "GET", "/v1/accept", null, null, 405, null));
        c.add(new Case("POST on a job", "POST", job, JSON, "{}", 405, null));
        c.add(new Case("PATCH on the types", "PATCH", "/v1/types", JSON, "{}", 405, null));
        // ---- query parameters
        c.add(new Case("a limit given twice", "GET", jobs + "?limit=2&limit=abc", null, null, 400, "limit"));
        c.add(new Case("a state given twice", "GET", jobs + "?state=running&state=pending", null, null, 400,
                "state"));
        c.add(new Case("a group with a control character", "GET", jobs + "?group=a%00b", null, null, 400, "group"));
        c.add(new Case("a group too long", "GET", jobs + "?group=" + "g".repeat(257), null, null, 400, "group"));
        c.add(new Case("a group too long across types", "GET", "/v1/jobs?group=" + "g".repeat(257), null, null, 400,
                "group"));
        c.add(new Case("waitFor given twice", "GET", job + "?waitFor=pending&waitFor=running", null, null, 400,
                "waitFor"));
        c.add(new Case("a bulk filter's group too long", "POST", "/v1/bulk", JSON,
                "{\"action\":\"cancel\",\"filter\":{\"type\":\"" + T + "\",\"group\":\"" + "g".repeat(257) + "\"}}",
                400, "filter.group"));
        return c.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void refusedWithAProblemDocument(Case c) {
        RequestSpecification request = given().urlEncodingEnabled(false);
        if (c.contentType() != null) {
            request.contentType(c.contentType());
        }
        if (c.body() != null) {
            // rest-assured encodes a String by its content type (and knows no "???"); bytes go as they are,
            // except for form content, which it insists on encoding itself.
            boolean form = "application/x-www-form-urlencoded".equals(c.contentType());
            if (form) {
                request.body(c.body());
            } else {
                request.body(c.body().getBytes(StandardCharsets.UTF_8));
            }
        }
        Response response = request.request(c.method(), c.path());
        response.then().statusCode(c.status())
                .contentType(startsWith("application/problem+json"))
                .body("status", equalTo(c.status()))
                .body("type", not(emptyOrNullString()))
                .body("title", not(emptyOrNullString()))
                .body("detail", not(emptyOrNullString()));
        if (c.field() != null) {
            response.then().body("field", equalTo(c.field()));
        }
    }

    @Test
    void nothingAboveChangedTheJobs() {
        // Runs in any order relative to the table; the table is all refusals, so this holds throughout.
        Api.get(T, "j").statusCode(200).body("state", equalTo("pending")).body("data.keep", equalTo(true))
                .body("scheduledAt", equalTo("2099-01-01T00:00:00Z")).body("group", equalTo(""));
        Api.get(T, "r").statusCode(200).body("state", equalTo("running"));
        given().get("/v1/types/{type}", T).then().statusCode(200).body("maxAttempts", equalTo(25))
                .body("paused", equalTo(false));
    }

    @Test
    void invalidUtf8Is400() {
        byte[] body = {'{', '"', 'g', 'r', 'o', 'u', 'p', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        given().contentType(JSON).body(body).put("/v1/jobs/{type}/{id}", T, "utf8").then().statusCode(400)
                .contentType(startsWith("application/problem+json"));
    }

    /**
     * Jackson reads a body starting with zero bytes as UTF-16 or UTF-32: a single call stored its data as an empty
     * text, which made every later answer naming the job invalid JSON, and a batch call failed with a 500.
     */
    @Test
    void aBodyInUtf16OrUtf32IsRefusedAndChangesNothing() {
        String single = "{\"data\":{\"a\":1}}";
        String batch = "{\"jobs\":[{\"type\":\"" + T + "\",\"id\":\"wide\"}]}";
        for (String charset : List.of("UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32")) {
            given().contentType(JSON).body(single.getBytes(java.nio.charset.Charset.forName(charset)))
                    .put("/v1/jobs/{type}/{id}", T, "wide").then().statusCode(400)
                    .contentType(startsWith("application/problem+json")).body("detail", startsWith("the body is not UTF-8"));
            given().contentType(JSON).body(batch.getBytes(java.nio.charset.Charset.forName(charset)))
                    .post("/v1/jobs").then().statusCode(400).body("detail", startsWith("the body is not UTF-8"));
        }
        Api.get(T, "wide").statusCode(404);
    }

    /** UTF-8 has one spelling for each text: an overlong form or an encoded surrogate is not UTF-8. */
    @Test
    void overlongFormsAndEncodedSurrogatesAreRefusedAndValidUtf8IsKept() {
        for (byte[] bad : List.of(new byte[] {(byte) 0xC1, (byte) 0x81}, new byte[] {(byte) 0xC0, (byte) 0xAF},
                new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                new byte[] {(byte) 0xF0, (byte) 0x80, (byte) 0x80, (byte) 0xAF}, new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                new byte[] {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, new byte[] {(byte) 0xE2, (byte) 0x82})) {
            java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
            body.writeBytes("{\"group\":\"g".getBytes(StandardCharsets.US_ASCII));
            body.writeBytes(bad);
            body.writeBytes("\"}".getBytes(StandardCharsets.US_ASCII));
            given().contentType(JSON).body(body.toByteArray()).put("/v1/jobs/{type}/{id}", T, "overlong").then()
                    .statusCode(400).body("detail", equalTo("the body is not UTF-8: the bytes from offset 11 are no valid"
                            + " UTF-8 sequence (an overlong form, a surrogate, a stray or missing continuation byte);"
                            + " JSON is sent as UTF-8"));
        }
        Api.get(T, "overlong").statusCode(404);
        // A byte-order mark, two-, three- and four-byte characters, and the last code point.
        byte[] valid = "\uFEFF{\"group\":\"\u00e9\u20ac\uD83D\uDE00\uDBFF\uDFFF\"}".getBytes(StandardCharsets.UTF_8);
        given().contentType(JSON).body(valid).put("/v1/jobs/{type}/{id}", T, "utf8-kept").then().statusCode(201)
                .body("group", equalTo("\u00e9\u20ac\uD83D\uDE00\uDBFF\uDFFF"));
    }

    @Test
    void aBodyOverTheLimitIs413() throws Exception {
        byte[] big = new byte[1024 * 1024 + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        given().contentType(JSON).body(big).put("/v1/jobs/{type}/{id}", T, "big").then().statusCode(413)
                .contentType(startsWith("application/problem+json"))
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/body-too-large"))
                .body("limit", equalTo(1024 * 1024));
        Api.get(T, "big").statusCode(404);
    }

    @Test
    void aChunkedBodyUnderTheLimitArrivesWhole() throws Exception {
        // Larger than what Quarkus REST reads in memory by default (10 KiB): read ahead by
        // BodyLimitRoute, such a body used to reach the resource as zeros.
        String text = "0123456789abcdef".repeat(2_500);
        byte[] body = ("{\"data\":{\"text\":\"" + text + "\"}}").getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> created = putChunked("chunked", body);
        assertEquals(201, created.statusCode(), created.body());
        Api.get(T, "chunked").statusCode(200).body("data.text", equalTo(text));
        // And one over the limit, sent the same way.
        byte[] big = new byte[1024 * 1024 + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        HttpResponse<String> refused = putChunked("chunked-big", big);
        assertEquals(413, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("\"limit\":1048576"), refused.body());
        Api.get(T, "chunked-big").statusCode(404);
    }

    /** A PUT whose body has no length, so that the client sends it chunked. */
    private static HttpResponse<String> putChunked(String id, byte[] body) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create("http://localhost:" + io.restassured.RestAssured.port + "/v1/jobs/" + T + "/" + id))
                .header("Content-Type", JSON)
                .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aChunkedBodyFarOverTheLimitIsCutOffWithAProblemAndNoErrorLogged() throws Exception {
        // Past Quarkus' own 10 MiB too, which used to cut it off with an empty 413 and log it twice
        // as a server error.
        try (CapturedLog mappers = CapturedLog.of(ProblemMappers.class);
                CapturedLog quarkus = CapturedLog.of(QuarkusErrorHandler.class)) {
            String answer = sendWholeBodyThenRead("huge", 11 * 1024 * 1024, true);
            assertRefusedAsTooLarge(answer);
            Api.get(T, "huge").statusCode(404);
            // The connection's close reaches the server's failure handling just after the answer.
            long quiet = System.nanoTime() + 1_000_000_000L;
            while (System.nanoTime() < quiet) {
                assertEquals(List.of(), mappers.messagesAtLeast(Level.SEVERE));
                assertEquals(List.of(), quarkus.messagesAtLeast(Level.SEVERE));
                Thread.sleep(50);
            }
        }
    }

    @Test
    void aClientThatWritesItsWholeBodyBeforeReadingIsAnsweredAndReleased() throws Exception {
        // The refused body is never read; the connection used to stay open, paused, so a client
        // still writing blocked until its own timeout.
        assertRefusedAsTooLarge(sendWholeBodyThenRead("declared", 8 * 1024 * 1024, false));
        Api.get(T, "declared").statusCode(404);
    }

    private static void assertRefusedAsTooLarge(String answer) {
        assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
        String lower = answer.toLowerCase(java.util.Locale.ROOT);
        assertTrue(lower.contains("\r\ncontent-type: application/problem+json"), answer);
        assertTrue(lower.contains("\r\nconnection: close"), answer);
        assertTrue(answer.contains("\"type\":\"tag:jobfoundry.io,2026:problem/body-too-large\""), answer);
        assertTrue(answer.contains("\"limit\":1048576"), answer);
    }

    /**
     * PUTs a job with a body of {@code size} bytes, sent chunked or with its length, from another
     * thread, and returns what the server answers until it closes the connection; fails if it does
     * not close it within 30 s.
     */
    private static String sendWholeBodyThenRead(String id, int size, boolean chunked) throws Exception {
        try (Socket socket = new Socket("localhost", io.restassured.RestAssured.port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            Thread sender = new Thread(() -> send(out, "/v1/jobs/" + T + "/" + id, size, chunked));
            sender.start();
            java.io.ByteArrayOutputStream answer = new java.io.ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            InputStream in = socket.getInputStream();
            try {
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    answer.write(buffer, 0, n);
                }
            } catch (java.net.SocketTimeoutException e) {
                throw new AssertionError("the connection was not closed; read: " + answer, e);
            } catch (java.io.IOException reset) {
                // a reset after the answer, for the body the server never read: closed all the same
            }
            socket.close(); // releases a sender still blocked in write
            sender.join(30_000);
            return answer.toString(StandardCharsets.UTF_8);
        }
    }

    /** Writes the request; stops quietly when the server closes the connection. */
    private static void send(OutputStream out, String path, int size, boolean chunked) {
        byte[] chunk = new byte[64 * 1024];
        java.util.Arrays.fill(chunk, (byte) ' ');
        try {
            out.write(("PUT " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + size) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            for (int sent = 0; sent < size; sent += chunk.length) {
                if (chunked) {
                    out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                }
                out.write(chunk, 0, Math.min(chunk.length, size - sent));
                if (chunked) {
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
            }
            if (chunked) {
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            }
        } catch (java.io.IOException closedByTheServer) {
            // expected: the server answers and closes before the body ends
        }
    }

    @Test
    void anUnacceptableAcceptHeaderIs406() {
        given().accept("text/html").get("/v1/types").then().statusCode(406)
                .contentType(startsWith("application/problem+json"));
    }

    /** RFC 9112: two Host headers are refused; protected mode judged the first and served the request. */
    @Test
    void aRequestWithTwoHostHeadersIsRefusedAndChangesNothing() throws Exception {
        for (String hosts : List.of("Host: localhost\r\nHost: evil.example\r\n", "Host: evil.example\r\nHost: localhost\r\n")) {
            String answer = Api.raw("PUT /v1/jobs/" + T + "/two-hosts HTTP/1.1\r\n" + hosts
                    + "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
            assertEquals("HTTP/1.1 400", answer.substring(0, 12), hosts + " answered " + answer);
            assertTrue(answer.contains("a request has one Host header, not 2"), answer);
            assertFalse(answer.contains("evil"), "quotes nothing of the request: " + answer);
        }
        Api.get(T, "two-hosts").statusCode(404);
    }

    @Test
    void aRequestWithoutAValidHostIsRefusedWithAProblemDocument() throws Exception {
        for (String host : List.of("", "Host: a b\r\n", "Host: x/y\r\n")) {
            String answer = Api.raw("GET /v1/jobs/" + T + "/j HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n");
            assertEquals("HTTP/1.1 400", answer.substring(0, 12), host + " answered " + answer);
            String lower = answer.toLowerCase(java.util.Locale.ROOT);
            assertTrue(lower.contains("\r\ncontent-type: application/problem+json"), answer);
            assertTrue(answer.contains("\"status\":400") && answer.contains("'Host' header is required"), answer);
        }
    }

    @Test
    void anIdThatIsADotSegmentIsRefusedBeforeUrlsDropIt() throws Exception {
        // Clients and Quarkus remove '.' and '..' segments: the request would reach another
        // endpoint (the type's listing, a 405, a 404) instead of naming a job.
        for (String request : List.of("GET /v1/jobs/" + T + "/%2E", "PUT /v1/jobs/" + T + "/.",
                "PUT /v1/jobs/" + T + "/%2e%2E", "POST /v1/jobs/" + T + "/../finish", "DELETE /v1/jobs/" + T + "/%2E")) {
            String answer = Api.raw(request + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
            assertEquals("HTTP/1.1 400", answer.substring(0, 12), request + " answered " + answer);
            assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("\r\ncontent-type: application/problem+json"),
                    answer);
            assertTrue(answer.contains("\"field\":\"id\""), answer);
        }
        // An id with dots in it is an id like any other.
        Api.put(T, "a.b", "{}").statusCode(201);
        Api.get(T, "a.b").statusCode(200);
        String dots = Api.raw("GET /v1/jobs/" + T + "/...%2E HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertEquals("HTTP/1.1 404", dots.substring(0, 12), dots);
    }

    @Test
    void anEmptySegmentIsRefusedBeforeItsSlashesAreMerged() throws Exception {
        // PUT /v1/jobs/{type}//x made job x: the empty id's slashes were merged into one.
        for (String request : List.of("PUT /v1/jobs/" + T + "//empty-id", "GET /v1/jobs//" + T + "/j",
                "PUT /v1/jobs/" + T + "//empty-id/")) {
            String answer = Api.raw(request + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\nConnection: close\r\n\r\n{}");
            assertEquals("HTTP/1.1 400", answer.substring(0, 12), request + " answered " + answer);
            assertTrue(answer.contains("'//'"), answer);
        }
        String typeEmpty = Api.raw("GET /v1/jobs//" + T + "/j HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertTrue(typeEmpty.contains("\"field\":\"type\"") && typeEmpty.contains("no type can be empty"), typeEmpty);
        Api.get(T, "empty-id").statusCode(404);
        // A trailing slash is no empty segment short of the end: it is routed as before.
        String trailing = Api.raw("GET /v1/jobs/" + T + "/j/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertTrue(!trailing.contains("'//'"), trailing);
    }

    /** Bodies are read as sent: an encoded one, or one under two media types, is refused before it is read. */
    @Test
    void aBodyTheServiceWouldMisreadIsRefused() throws Exception {
        String encoded = Api.raw("PUT /v1/jobs/" + T + "/encoded HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Encoding: br\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
        assertEquals("HTTP/1.1 415", encoded.substring(0, 12), encoded);
        assertTrue(encoded.contains("\"type\":\"tag:jobfoundry.io,2026:problem/unsupported-media-type\""), encoded);
        assertTrue(encoded.contains("without a Content-Encoding (it was 'br')"), encoded);
        String twice = Api.raw("PUT /v1/jobs/" + T + "/twice HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
        assertEquals("HTTP/1.1 400", twice.substring(0, 12), twice);
        assertTrue(twice.contains("one Content-Type header, not 2"), twice);
        Api.get(T, "encoded").statusCode(404);
        Api.get(T, "twice").statusCode(404);
        // identity is no encoding, and a request without a body carries no media type to misread.
        String identity = Api.raw("PUT /v1/jobs/" + T + "/identity HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Encoding: identity\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
        assertEquals("HTTP/1.1 201", identity.substring(0, 12), identity);
    }

    @Test
    void aMalformedRequestLineIsRefusedWithoutA500() throws Exception {
        for (String target : List.of("/v1/jobs/" + T + "/a%zzb", "/v1/jobs/" + T + "/%")) {
            try (Socket socket = new Socket("localhost", io.restassured.RestAssured.port)) {
                OutputStream out = socket.getOutputStream();
                out.write(("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = socket.getInputStream();
                String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
                assertEquals("HTTP/1.1 4", status.substring(0, 10), target + " answered " + status);
            }
        }
    }
}
