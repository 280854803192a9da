package io.jobfoundry.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who may call the service. The names {@code jobfoundry.auth.tokens."<name>".hash|roles|types}
 * and {@code jobfoundry.auth.open} are fixed (scripts and manifests rely on them); each works as an
 * environment variable or from a mounted file like every other setting. Checked at start by
 * {@link ConfiguredTokens}, which refuses to start on a bad hash or an unknown role.
 */
@ConfigMapping(prefix = "jobfoundry.auth")
public interface AuthConfig {

    /** ConfiguredTokens by name; none configured means protected mode (loopback only) unless {@link #open()}. */
    Map<String, Token> tokens();

    /**
     * Serve every client without a token (a WARN at start): for a network that is itself closed.
     * Not with tokens configured (the start stops): it would make them meaningless.
     */
    @WithDefault("false")
    boolean open();

    /** Serve {@code /q/metrics} without a token (scrapers that cannot send one); otherwise it needs {@code viewer}. */
    @WithDefault("false")
    boolean metricsOpen();

    interface Token {
        /** {@code sha256:<hex>}: the lower-case hex SHA-256 of the token's UTF-8 bytes; never the token itself. */
        String hash();

        /** {@code viewer}, {@code producer}, {@code worker}, {@code admin}. */
        List<String> roles();

        /**
         * Comma-separated type globs the token is confined to; every type when absent. Text, split by
         * {@link ConfiguredTokens}: as a list SmallRye drops empty entries and would give a value of
         * only those ({@code types=,}) as absent, which means every type, where it must be refused.
         */
        Optional<String> types();

        /**
         * The subject CN of a client certificate that stands for this token (mutual TLS): a client
         * presenting a certificate the TLS trust store accepts, with this CN, is this token.
         */
        Optional<String> certificateCn();
    }
}
