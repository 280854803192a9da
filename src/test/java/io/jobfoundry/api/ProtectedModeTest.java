package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.SocketException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Protected mode: with no token configured, a client on one of this machine's other addresses is
 * refused with a detail saying how to configure tokens, nothing changes, health stays open; a
 * client on loopback is served with every role (the README's two-command start), unless its Host
 * is not a loopback name or its Origin is another site's (a web page in a browser on this machine).
 */
@QuarkusTest
@TestProfile(ProtectedModeProfile.class)
class ProtectedModeTest {

    @Test
    void aClientNotOnLoopbackIsRefusedAndToldHowToConfigureTokens() throws Exception {
        InetAddress address = nonLoopbackAddress().orElse(null);
        Assumptions.assumeTrue(address != null,
                "skipped: this machine has no non-loopback address (no interface up with one)");
        String host = address.getHostAddress();
        String base = "http://" + (address instanceof Inet4Address ? host : "[" + host + "]");
        String type = Api.type("protected");
        given().baseUri(base).port(RestAssured.port).contentType(ContentType.JSON).body("{}")
                .put("/v1/jobs/{type}/{id}", type, "from-outside").then().statusCode(403)
                .contentType("application/problem+json")
                .body("type", equalTo("tag:jobfoundry.io,2026:problem/forbidden"))
                .body("detail", containsString("jobfoundry.auth.tokens"))
                .body("detail", containsString("jobfoundry.auth.open=true"));
        given().baseUri(base).port(RestAssured.port).get("/v1/types").then().statusCode(403);
        given().baseUri(base).port(RestAssured.port).get("/v1/me").then().statusCode(403);
        given().baseUri(base).port(RestAssured.port).get("/q/metrics").then().statusCode(403);
        given().baseUri(base).port(RestAssured.port).get("/q/health/ready").then().statusCode(200);
        // Nothing was created by the refused PUT.
        given().get("/v1/jobs/{type}/{id}", type, "from-outside").then().statusCode(404);
    }

    @Test
    void loopbackIsServedWithEveryRole() {
        given().get("/v1/me").then().statusCode(200).body("name", equalTo("anonymous"))
                .body("roles", equalTo(List.of("viewer", "producer", "worker", "admin")))
                .body("types", nullValue());
        given().post("/v1/types/{type}/pause", Api.type("loopback")).then().statusCode(200);
        // No token configured: a client that sends one anyway (a library set up ahead) is served.
        given().auth().oauth2("not-configured-anywhere").get("/v1/me").then().statusCode(200)
                .body("name", equalTo("anonymous"));
        given().get("/q/metrics").then().statusCode(200);
    }

    /**
     * DNS rebinding: a page of attacker.example, its name made to resolve to 127.0.0.1, reaches the
     * port from the local browser as its own origin, so it could read the answers; its Host is its
     * own name. The detail says why, quoting the Host bounded.
     */
    @Test
    void aRequestWhoseHostIsNotALoopbackNameIsRefusedThoughItComesFromLoopback() {
        String type = Api.type("rebound");
        Api.put(type, "s1", "{}").statusCode(201);
        for (String host : List.of("attacker.example:" + RestAssured.port, "attacker.example",
                "localhost.attacker.example:" + RestAssured.port, "127.0.0.1.nip.io:" + RestAssured.port,
                "127.1:" + RestAssured.port, "localhost.:" + RestAssured.port, "[::2]:" + RestAssured.port)) {
            given().header("Host", host).get("/v1/jobs/{type}/{id}", type, "s1").then().statusCode(403)
                    .contentType("application/problem+json")
                    .body("type", equalTo("tag:jobfoundry.io,2026:problem/forbidden"))
                    .body("detail", containsString("Host '" + host + "' is not a loopback name"))
                    .body("detail", containsString("jobfoundry.auth.tokens"));
        }
        String longName = "a".repeat(200) + ".example";
        String detail = given().header("Host", longName).get("/v1/types").then().statusCode(403)
                .extract().path("detail");
        assertFalse(detail.contains("a".repeat(65)), "the Host is quoted bounded: " + detail);
        given().header("Host", "attacker.example").post("/v1/types/{type}/pause", type).then().statusCode(403);
        given().get("/v1/types/{type}", type).then().statusCode(200).body("paused", equalTo(false));
    }

    /**
     * A proxy on this machine (an nginx, a mesh sidecar) relays requests of clients elsewhere from a
     * loopback peer with a loopback Host: its headers give it away, proxy settings on or off (with
     * them on: ProtectedModeForwardedHeadersTest).
     */
    @Test
    void aRequestRelayedByAProxyOnThisMachineIsRefusedAndChangesNothing() {
        String type = Api.type("relayed");
        assertRefusedAsRelayed(type, new String[][] {{"X-Forwarded-For", "203.0.113.7"},
                {"Forwarded", "for=203.0.113.7"}, {"X-Forwarded-Host", "localhost"}, {"X-Real-IP", "203.0.113.7"}});
        given().header("X-Forwarded-For", "127.0.0.1").get("/q/health/ready").then().statusCode(200);
    }

    /**
     * Each header, sent alone on a pause of {@code type}, is refused as a proxy's, saying how to
     * configure tokens; the type, never used, stays unknown. (Also under the proxy settings' profile.)
     */
    static void assertRefusedAsRelayed(String type, String[][] headers) {
        for (String[] header : headers) {
            given().header(header[0], header[1]).post("/v1/types/{type}/pause", type).then().statusCode(403)
                    .contentType("application/problem+json")
                    .body("type", equalTo("tag:jobfoundry.io,2026:problem/forbidden"))
                    .body("detail", containsString("carries a proxy's headers"))
                    .body("detail", containsString("jobfoundry.auth.tokens"));
        }
        given().get("/v1/types/{type}", type).then().statusCode(404);
    }

    /**
     * Another site's page makes the local browser send "simple" requests (no body, so no CORS
     * preflight): it cannot read the answers, but must not pause, cancel or remove. Browsers name
     * the page's origin in Origin on every POST and DELETE; {@code Origin: null} is no origin.
     */
    @Test
    void aRequestFromAnotherSitesPageIsRefusedAndChangesNothing() {
        String type = Api.type("cross-site");
        Api.put(type, "e3", "{}").statusCode(201);
        String port = String.valueOf(RestAssured.port);
        for (String origin : List.of("http://evil.example", "http://localhost:1", "null", "http://localhost",
                "http://localhost:" + port + ".evil.example", "file://", "http://127.0.0.1:" + port + "/page",
                "http://user@localhost:" + port)) {
            given().header("Origin", origin).post("/v1/types/{type}/pause", type).then().statusCode(403)
                    .contentType("application/problem+json")
                    .body("type", equalTo("tag:jobfoundry.io,2026:problem/forbidden"))
                    .body("detail", containsString("another site's page (its Origin '" + origin + "'"))
                    .body("detail", containsString("jobfoundry.auth.tokens"));
            given().header("Origin", origin).post("/v1/jobs/{type}/{id}/cancel", type, "e3").then().statusCode(403);
            given().header("Origin", origin).delete("/v1/jobs/{type}/{id}", type, "e3").then().statusCode(403);
        }
        given().get("/v1/types/{type}", type).then().statusCode(200).body("paused", equalTo(false));
        Api.get(type, "e3").statusCode(200).body("state", equalTo("pending"));
        String detail = given().header("Origin", "http://" + "e".repeat(300) + ".example")
                .delete("/v1/jobs/{type}/{id}", type, "e3").then().statusCode(403).extract().path("detail");
        assertFalse(detail.contains("e".repeat(65)), "the Origin is quoted bounded: " + detail);
    }

    /**
     * The dashboard, served from here, in a browser on this machine: its calls carry its own origin,
     * at whichever loopback name it was opened; curl and kubectl port-forward send no Origin.
     */
    @Test
    void theServicesOwnPagesAndClientsOnLoopbackNamesAreServed() {
        String type = Api.type("own-origin");
        String port = String.valueOf(RestAssured.port);
        List<List<String>> hostAndOrigin = List.of(
                List.of("localhost:" + port, "http://localhost:" + port),
                List.of("127.0.0.1:" + port, "http://127.0.0.1:" + port),
                List.of("LocalHost:" + port, "http://localhost:" + port),
                List.of("[::1]:" + port, "http://[::1]:" + port),
                List.of("jobs.localhost:" + port, "http://jobs.localhost:" + port),
                List.of("127.8.9.10:" + port, "http://127.8.9.10:" + port),
                List.of("localhost", "http://localhost"),
                List.of("localhost:80", "http://localhost"));
        for (List<String> pair : hostAndOrigin) {
            given().header("Host", pair.get(0)).header("Origin", pair.get(1))
                    .post("/v1/types/{type}/pause", type).then().statusCode(200);
            given().header("Host", pair.get(0)).get("/v1/me").then().statusCode(200)
                    .body("name", equalTo("anonymous"));
        }
        given().header("Host", "localhost:" + port).get("/ui/").then().statusCode(200);
        given().header("Origin", "http://localhost:" + port).post("/v1/types/{type}/resume", type)
                .then().statusCode(200).body("paused", equalTo(false));
    }

    /** HTTP/2 (h2c here; h2 over TLS from a browser) names the host in :authority, and has no Host header. */
    @Test
    void overHttp2TheAuthorityIsTheHost() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        for (String host : List.of("localhost", "127.0.0.1")) {
            URI me = URI.create("http://" + host + ":" + RestAssured.port + "/v1/me");
            // The first request asks to upgrade the connection; the second is an HTTP/2 stream.
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> answer = client.send(HttpRequest.newBuilder(me).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, answer.statusCode(), answer.body());
                assertEquals(i == 0 ? answer.version() : HttpClient.Version.HTTP_2, answer.version());
            }
        }
    }

    /** An address of an interface that is up and not loopback, IPv4 first (an IPv6 link-local needs a scope). */
    static Optional<InetAddress> nonLoopbackAddress() throws SocketException {
        InetAddress v6 = null;
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                if (address.isLoopbackAddress() || address.isLinkLocalAddress()) {
                    continue;
                }
                if (address instanceof Inet4Address) {
                    return Optional.of(address);
                }
                v6 = v6 == null ? address : v6;
            }
        }
        return Optional.ofNullable(v6);
    }
}
