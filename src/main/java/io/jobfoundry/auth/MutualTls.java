package io.jobfoundry.auth;

import io.quarkus.tls.TlsConfiguration;
import io.quarkus.tls.TlsConfigurationRegistry;
import io.quarkus.vertx.http.security.HttpSecurity;
import io.vertx.core.http.ClientAuth;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Asks HTTPS clients for a certificate when, and only when, a token names one ({@code certificate-cn}). Quarkus'
 * own {@code quarkus.http.ssl.client-auth} is fixed when the jar is built, so a setting at run time was ignored and
 * no certificate was ever asked for; and asking whatever the configuration would have browsers that hold a
 * certificate offer it to the dashboard. The certificate is checked against the TLS trust store, which must then
 * name the clients' CA: without one the JDK's public CAs would vouch for whatever CN a certificate claims.
 */
@ApplicationScoped
public class MutualTls {

    void configure(@Observes HttpSecurity http, ConfiguredTokens tokens, TlsConfigurationRegistry registry,
            @ConfigProperty(name = "quarkus.http.tls-configuration-name") Optional<String> tlsName) {
        if (!tokens.anyCertificateCn()) {
            return;
        }
        // HTTPS uses the named TLS configuration if one is set, else the default one.
        String missing = missing(tlsName.isPresent() ? registry.get(tlsName.get()).orElse(null)
                : registry.getDefault().orElse(null));
        if (missing != null) {
            throw new IllegalStateException("invalid configuration: a token has a certificate-cn, but " + missing);
        }
        http.mTLS(ClientAuth.REQUEST);
    }

    /** What client certificates need and {@code tls} lacks, or null. */
    static String missing(TlsConfiguration tls) {
        if (tls == null || tls.getKeyStoreOptions() == null) {
            return "HTTPS is not configured (quarkus.tls.key-store...): client certificates come only over HTTPS";
        }
        if (tls.getTrustStoreOptions() == null || tls.isTrustAll()) {
            return "no TLS trust store names the clients' CA (quarkus.tls.trust-store...): without one, any public CA"
                    + " would vouch for a certificate's CN";
        }
        return null;
    }
}
