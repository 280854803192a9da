package io.jobfoundry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Real TLS handshakes against the service: its PEM certificate is the one served; a bearer token
 * works over TLS; a trusted client certificate stands for the token its CN is mapped to, with that
 * token's roles and types; an untrusted certificate with the same CN does not.
 */
@QuarkusTest
@TestProfile(TlsProfile.class)
class TlsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aBearerTokenOverTlsIsItsToken() throws Exception {
        HttpResponse<String> me = send(client(null), "/v1/me", TlsProfile.VIEWER);
        assertEquals(200, me.statusCode(), me.body());
        assertEquals("tls-viewer", JSON.readTree(me.body()).path("name").asText());
    }

    @Test
    void aTrustedClientCertificateIsTheTokenItsCnNames() throws Exception {
        HttpResponse<String> me = send(client("client"), "/v1/me", null);
        assertEquals(200, me.statusCode(), me.body());
        JsonNode caller = JSON.readTree(me.body());
        assertEquals("tls-worker", caller.path("name").asText());
        assertEquals("[\"viewer\",\"worker\"]", caller.path("roles").toString());
        assertEquals("[\"email*\"]", caller.path("types").toString());
        // Its roles and types apply: a worker may not remove, and may not read billing.
        assertEquals(403, send(client("client"), "/v1/jobs/billing/x", null).statusCode());
    }

    @Test
    void noCertificateAndNoTokenIs401AndAnUntrustedCertificateIsNotTheToken() throws Exception {
        HttpResponse<String> anonymous = send(client(null), "/v1/me", null);
        assertEquals(401, anonymous.statusCode());
        assertTrue(anonymous.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
        try {
            assertEquals(401, send(client("intruder"), "/v1/me", null).statusCode());
        } catch (IOException refusedHandshake) {
            // Refusing the handshake is as good: the intruder got nothing.
        }
    }

    @Test
    void aClientThatDoesNotTrustTheServerCertificateFailsTheHandshake() {
        HttpClient trustsNothing = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        assertThrows(IOException.class, () -> send(trustsNothing, "/v1/me", TlsProfile.VIEWER));
    }

    private static HttpResponse<String> send(HttpClient client, String path, String token) throws Exception {
        int port = ConfigProvider.getConfig().getValue("quarkus.http.test-ssl-port", Integer.class);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A client trusting the server's certificate (only it), presenting {@code keyPair}'s certificate if given. */
    private static HttpClient client(String keyPair) throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        try (InputStream in = Files.newInputStream(TlsProfile.dirPath().resolve("server.crt"))) {
            trusted.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        KeyManagerFactory keys = null;
        if (keyPair != null) {
            KeyStore own = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(TlsProfile.keyStore(keyPair))) {
                own.load(in, TlsProfile.PASSWORD.toCharArray());
            }
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(own, TlsProfile.PASSWORD.toCharArray());
        }
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
        return HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(10)).build();
    }
}
