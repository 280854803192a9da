package io.jobfoundry.auth;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.tls.TlsConfiguration;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/** A token with a certificate-cn stops the service unless HTTPS is on and a trust store names the clients' CA. */
class MutualTlsTest {

    @Test
    void clientCertificatesNeedHttpsAndATrustStoreOfTheirOwn() {
        assertTrue(MutualTls.missing(null).startsWith("HTTPS is not configured"));
        assertTrue(MutualTls.missing(tls(false, false, false)).startsWith("HTTPS is not configured"));
        assertTrue(MutualTls.missing(tls(true, false, false)).startsWith("no TLS trust store names the clients' CA"));
        assertTrue(MutualTls.missing(tls(true, true, true)).startsWith("no TLS trust store names the clients' CA"),
                "trust-all vouches for every certificate");
        assertNull(MutualTls.missing(tls(true, true, false)));
    }

    private static TlsConfiguration tls(boolean keyStore, boolean trustStore, boolean trustAll) {
        return (TlsConfiguration) Proxy.newProxyInstance(TlsConfiguration.class.getClassLoader(),
                new Class<?>[] {TlsConfiguration.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getKeyStoreOptions" -> keyStore ? new PemKeyCertOptions() : null;
                    case "getTrustStoreOptions" -> trustStore ? new PemTrustOptions() : null;
                    case "isTrustAll" -> trustAll;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
