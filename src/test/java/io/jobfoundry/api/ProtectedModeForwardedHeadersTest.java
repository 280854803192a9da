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
 * Host as sent, never what X-Forwarded-For or X-Forwarded-Host say, which any client can send.
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

    @Test
    void aLoopbackPeerIsServedWhateverItsForwardedAddressSays() {
        given().header("X-Forwarded-For", "203.0.113.7").get("/v1/me").then().statusCode(200)
                .body("name", equalTo("anonymous"));
        given().header("X-Forwarded-For", "203.0.113.7").header("X-Forwarded-Proto", "https")
                .post("/v1/types/{type}/pause", Api.type("forwarded")).then().statusCode(200);
    }

    /** A rebinding attacker's page is same-origin to itself and may send any X-Forwarded-Host. */
    @Test
    void aForwardedHostDoesNotStandForTheHostSent() {
        given().header("Host", "attacker.example").header("X-Forwarded-Host", "localhost")
                .get("/v1/me").then().statusCode(403)
                .body("detail", containsString("names its host in X-Forwarded-Host or Forwarded"));
        given().header("Host", "attacker.example").header("X-Forwarded-For", "127.0.0.1").get("/v1/me").then()
                .statusCode(403).body("detail", containsString("Host 'attacker.example' is not a loopback name"));
    }
}
