package io.jobfoundry.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Protected mode: with no token configured, a client on one of this machine's other addresses is
 * refused with a detail saying how to configure tokens, nothing changes, health stays open; a
 * client on loopback is served with every role (the README's two-command start).
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

    /** An address of an interface that is up and not loopback, IPv4 first (an IPv6 link-local needs a scope). */
    private static Optional<InetAddress> nonLoopbackAddress() throws SocketException {
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
