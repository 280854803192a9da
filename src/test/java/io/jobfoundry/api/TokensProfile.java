package io.jobfoundry.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * The service with tokens configured: one per role over every type, and {@code email}, an admin
 * confined to {@code email*}. Shared by every test that needs tokens, so that Quarkus starts once
 * for all of them; the log goes to a file too, for SecretsInLogsTest to read.
 */
public class TokensProfile implements QuarkusTestProfile {

    static final String VIEWER = "viewer-secret-0c8e1f";
    static final String PRODUCER = "producer-secret-5a1b2c";
    static final String WORKER = "worker-secret-9d8e7f";
    static final String ADMIN = "admin-secret-3e4f5a";
    static final String EMAIL = "email-admin-secret-77aa01";
    static final Map<String, String> SECRETS = Map.of("ci-viewer", VIEWER, "ci-producer", PRODUCER,
            "ci-worker", WORKER, "ci-admin", ADMIN, "email-team", EMAIL);
    static final String LOG_FILE = "target/auth-tokens-test.log";

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>();
        token(config, "ci-viewer", VIEWER, "viewer");
        token(config, "ci-producer", PRODUCER, "producer");
        token(config, "ci-worker", WORKER, "worker");
        token(config, "ci-admin", ADMIN, "admin");
        token(config, "email-team", EMAIL, "admin");
        config.put("jobfoundry.auth.tokens.\"email-team\".types", "email*");
        config.put("quarkus.log.file.enabled", "true");
        config.put("quarkus.log.file.path", LOG_FILE);
        return config;
    }

    private static void token(Map<String, String> config, String name, String secret, String roles) {
        config.put("jobfoundry.auth.tokens.\"" + name + "\".hash", hash(secret));
        config.put("jobfoundry.auth.tokens.\"" + name + "\".roles", roles);
    }

    static String hash(String secret) {
        try {
            return "sha256:" + HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
