package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.net.Inet4Address;
import java.net.InetAddress;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Protected mode with Quarkus' proxy settings on: the decision reads the connection's peer and the
 * Host as sent, never what X-Forwarded-For, X-Forwarded-Host or Forwarded say, which any client can
 * send; and a request carrying them was relayed by a proxy (or forged by a page), so it is refused.
 */
@QuarkusTest
@TestProfile(ForwardedHeadersProfile.class)
class ProtectedModeForwardedHeadersTest {

    @Test
    void aRemoteClientClaimingLoopbackInXForwardedForIsRefused() throws Exception {
        InetAddress address = ProtectedModeTest.nonLoopbackAddress().orElse(null);
        Assumptions.assumeTrue(address != null,
                "skipped: this machine has no non-loopback address (no interface up with one)");
        String host = address.getHostAddress();
        String base = "http://" + (address instanceof Inet4Address ? host : "[" + host + "]");
        String type = Api.type("forwarded");
        // A loopback Host too, so only the peer is left to refuse it.
        given().baseUri(base).port(RestAssured.port).header("Host", "localhost:" + RestAssured.port)
                .header("X-Forwarded-For", "127.0.0.1").post("/v1/types/{type}/pause", type).then().statusCode(403)
                .contentType("application/problem+json")
                .body("detail", containsString("only clients on this machine (loopback) are served"));
        given().baseUri(base).port(RestAssured.port).header("Host", "127.0.0.1:" + RestAssured.port)
                .header("X-Forwarded-For", "::1").get("/v1/me").then().statusCode(403);
        given().get("/v1/types/{type}", type).then().statusCode(404);
    }

    /**
     * A proxy on this machine (a sidecar, an nginx) relays requests of clients elsewhere from a
     * loopback peer: its own headers give it away, whatever address they name.
     */
    @Test
    void aRequestRelayedByAProxyIsRefused() {
        ProtectedModeTest.assertRefusedAsRelayed(Api.type("forwarded"), new String[][] {
                {"X-Forwarded-For", "203.0.113.7"}, {"X-Forwarded-For", "127.0.0.1"}, {"Forwarded", "for=203.0.113.7"},
                {"X-Real-IP", "203.0.113.7"}});
        given().header("X-Forwarded-Proto", "https").get("/v1/me").then().statusCode(200)
                .body("name", equalTo("anonymous"));
    }

    /**
     * A rebinding attacker's page is same-origin to itself and may send any X-Forwarded-Host or
     * Forwarded: host=, which these settings put in place of its Host. With both header families
     * allowed, Quarkus records no forwarded host for the latter, so only the header's presence tells.
     */
    @Test
    void aForwardedHostDoesNotStandForTheHostSent() {
        given().header("Host", "attacker.example").header("X-Forwarded-Host", "localhost")
                .get("/v1/me").then().statusCode(403)
                .body("detail", containsString("carries a proxy's headers"));
        given().header("Host", "attacker.example").header("Forwarded", "host=localhost")
                .get("/v1/me").then().statusCode(403)
                .body("detail", containsString("carries a proxy's headers"));
        given().header("Host", "attacker.example").header("X-Original-Host", "localhost")
                .get("/v1/me").then().statusCode(403)
                .body("detail", containsString("carries a proxy's headers"));
        given().header("Host", "attacker.example").get("/v1/me").then()
                .statusCode(403).body("detail", containsString("Host 'attacker.example' is not a loopback name"));
    }
}
