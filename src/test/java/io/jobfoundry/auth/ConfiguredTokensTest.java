package io.jobfoundry.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.model.TypeScope;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** The configured tokens: checked at start without showing a hash, matched by hash, each with its roles and types. */
class ConfiguredTokensTest {

    private record Token(String hash, List<String> roles, Optional<String> types, Optional<String> certificateCn)
            implements AuthConfig.Token {
    }

    private record Config(Map<String, AuthConfig.Token> tokens, boolean open, boolean metricsOpen) implements AuthConfig {
    }

    private static String hash(String token) {
        return "sha256:" + HexFormat.of().formatHex(ConfiguredTokens.sha256(token));
    }

    @Test
    void aPresentedTokenIsItsConfiguredIdentityWithTheRolesItsRolesImply() {
        Map<String, AuthConfig.Token> tokens = new LinkedHashMap<>();
        tokens.put("deployer", new Token(hash("s3cret-deploy"), List.of("producer"), Optional.empty(), Optional.empty()));
        tokens.put("mailer", new Token(hash("s3cret-mail"), List.of(" worker "), Optional.of("email*"),
                Optional.empty()));
        ConfiguredTokens configured = new ConfiguredTokens(new Config(tokens, false, false));
        SecurityIdentity deployer = configured.match("s3cret-deploy");
        assertEquals("deployer", deployer.getPrincipal().getName());
        assertEquals(List.of("viewer", "producer"), Caller.roles(deployer));
        assertTrue(Caller.scope(deployer).isAll());
        SecurityIdentity mailer = configured.match("s3cret-mail");
        assertEquals(List.of("viewer", "worker"), Caller.roles(mailer));
        assertEquals(TypeScope.of(List.of("email*")), Caller.scope(mailer));
        assertNull(configured.match("s3cret-mai"));
        assertNull(configured.match(""));
        assertFalse(configured.protectedMode());
    }

    /** A Kubernetes Secret given as environment variables: JOBFOUNDRY_AUTH_TOKENS__<NAME>__HASH and so on. */
    @Test
    void tokensCanBeConfiguredThroughEnvironmentVariables() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(AuthConfig.class)
                .withSources(new EnvConfigSource(Map.of(
                        "JOBFOUNDRY_AUTH_TOKENS__MAILER__HASH", hash("from-the-environment"),
                        "JOBFOUNDRY_AUTH_TOKENS__MAILER__ROLES", "worker,producer",
                        "JOBFOUNDRY_AUTH_TOKENS__MAILER__TYPES", "email*,sms"), 300) {
                })
                .build();
        ConfiguredTokens tokens = new ConfiguredTokens(config.getConfigMapping(AuthConfig.class));
        SecurityIdentity mailer = tokens.match("from-the-environment");
        assertEquals("mailer", mailer.getPrincipal().getName());
        assertEquals(List.of("viewer", "producer", "worker"), Caller.roles(mailer));
        assertEquals(TypeScope.of(List.of("email*", "sms")), Caller.scope(mailer));
    }

    @Test
    void aBadHashAnUnknownRoleAndABadGlobStopTheStartNamingTheKeyButNotTheHash() {
        String wrong = "sha256:" + "AB".repeat(32); // upper-case hex: not what sha256sum prints
        Map<String, AuthConfig.Token> tokens = new LinkedHashMap<>();
        tokens.put("ci", new Token(wrong, List.of("viewer"), Optional.empty(), Optional.empty()));
        tokens.put("ops", new Token(hash("x"), List.of("root"), Optional.of("bad glob!"), Optional.empty()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ConfiguredTokens(new Config(tokens, false, false)));
        assertTrue(e.getMessage().contains("jobfoundry.auth.tokens.\"ci\".hash must be sha256:"), e.getMessage());
        assertTrue(e.getMessage().contains("jobfoundry.auth.tokens.\"ops\".roles: unknown role \"root\""), e.getMessage());
        assertTrue(e.getMessage().contains("jobfoundry.auth.tokens.\"ops\".types"), e.getMessage());
        assertFalse(e.getMessage().contains("ABAB"), "the hash is not shown: " + e.getMessage());
    }

    /**
     * A types key that is there but names no type is a mistake, not every type: SmallRye's list
     * would drop its empty entries and give the token every type. Through SmallRye, as in production.
     */
    @Test
    void aTypesKeyThatNamesNoTypeStopsTheStartNamingTheKey() {
        for (String types : List.of("", ",", " , ", ",,", " ")) {
            SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(AuthConfig.class)
                    .withSources(new PropertiesConfigSource(Map.of(
                            "jobfoundry.auth.tokens.\"t\".hash", hash("confined"),
                            "jobfoundry.auth.tokens.\"t\".roles", "viewer",
                            "jobfoundry.auth.tokens.\"t\".types", types), "test", 300))
                    .build();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new ConfiguredTokens(config.getConfigMapping(AuthConfig.class), config), "types=" + types);
            assertTrue(e.getMessage().contains("jobfoundry.auth.tokens.\"t\".types names no type"), e.getMessage());
        }
        // The same as an environment variable (a Secret's key left empty, or empty but for a comma).
        for (String types : List.of("", ",")) {
            SmallRyeConfig fromEnvironment = new SmallRyeConfigBuilder().withMapping(AuthConfig.class)
                    .withSources(new EnvConfigSource(Map.of(
                            "JOBFOUNDRY_AUTH_TOKENS__T__HASH", hash("confined"),
                            "JOBFOUNDRY_AUTH_TOKENS__T__ROLES", "viewer",
                            "JOBFOUNDRY_AUTH_TOKENS__T__TYPES", types), 300) {
                    })
                    .build();
            assertThrows(IllegalArgumentException.class, () -> new ConfiguredTokens(
                    fromEnvironment.getConfigMapping(AuthConfig.class), fromEnvironment), "TYPES=" + types);
        }
    }

    /** Beside a type, an empty entry is dropped and a blank one is a bad glob, as before; no types key is every type. */
    @Test
    void emptyEntriesBesideATypeAreDroppedAndNoTypesKeyIsEveryType() {
        SmallRyeConfig config = new SmallRyeConfigBuilder().withMapping(AuthConfig.class)
                .withSources(new PropertiesConfigSource(Map.of(
                        "jobfoundry.auth.tokens.\"mailer\".hash", hash("mail"),
                        "jobfoundry.auth.tokens.\"mailer\".roles", "worker",
                        "jobfoundry.auth.tokens.\"mailer\".types", "email*,,sms,",
                        "jobfoundry.auth.tokens.\"ops\".hash", hash("ops"),
                        "jobfoundry.auth.tokens.\"ops\".roles", "admin"), "test", 300))
                .build();
        ConfiguredTokens tokens = new ConfiguredTokens(config.getConfigMapping(AuthConfig.class));
        assertEquals(TypeScope.of(List.of("email*", "sms")), Caller.scope(tokens.match("mail")));
        assertTrue(Caller.scope(tokens.match("ops")).isAll());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ConfiguredTokens(
                new SmallRyeConfigBuilder().withMapping(AuthConfig.class).withSources(new PropertiesConfigSource(Map.of(
                        "jobfoundry.auth.tokens.\"mailer\".hash", hash("mail"),
                        "jobfoundry.auth.tokens.\"mailer\".roles", "worker",
                        "jobfoundry.auth.tokens.\"mailer\".types", "email*, ,sms"), "test", 300))
                        .build().getConfigMapping(AuthConfig.class)));
        assertTrue(e.getMessage().contains("jobfoundry.auth.tokens.\"mailer\".types: each is a type name"),
                e.getMessage());
    }

    /** Tokens are found by their hash: two names for one token would make the caller's name a guess. */
    @Test
    void oneTokenUnderTwoNamesStopsTheServiceNamingBothButNotTheHash() {
        Map<String, AuthConfig.Token> tokens = new LinkedHashMap<>();
        tokens.put("billing", new Token(hash("shared"), List.of("producer"), Optional.empty(), Optional.empty()));
        tokens.put("mailer", new Token(hash("shared"), List.of("worker"), Optional.empty(), Optional.empty()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ConfiguredTokens(new Config(tokens, false, false)));
        assertTrue(e.getMessage().contains("jobfoundry.auth.tokens.\"mailer\".hash is the hash of token \"billing\" too"),
                e.getMessage());
        assertFalse(e.getMessage().contains(hash("shared").substring(7, 20)), "the hash is not shown: " + e.getMessage());
    }

    @Test
    void manyTokensEachFindTheirOwnIdentity() {
        Map<String, AuthConfig.Token> tokens = new LinkedHashMap<>();
        for (int i = 0; i < 200; i++) {
            tokens.put("service-" + i, new Token(hash("token-" + i), List.of(i % 2 == 0 ? "worker" : "producer"),
                    Optional.empty(), Optional.empty()));
        }
        ConfiguredTokens configured = new ConfiguredTokens(new Config(tokens, false, false));
        for (int i = 0; i < 200; i++) {
            assertEquals("service-" + i, configured.match("token-" + i).getPrincipal().getName());
        }
        assertNull(configured.match("token-200"));
        assertFalse(configured.none());
    }

    @Test
    void openModeWarnsAtStartAndNoTokenIsProtectedMode() {
        List<LogRecord> records = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(ConfiguredTokens.class.getName());
        logger.addHandler(capture);
        try {
            ConfiguredTokens open = new ConfiguredTokens(new Config(Map.of(), true, false));
            assertTrue(open.open());
            assertFalse(open.protectedMode());
            assertTrue(records.stream().anyMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue()
                    && String.valueOf(r.getMessage()).contains("jobfoundry.auth.open=true")), "a WARN at start");
        } finally {
            logger.removeHandler(capture);
        }
        assertTrue(new ConfiguredTokens(new Config(Map.of(), false, false)).protectedMode());
    }

    /**
     * Open beside tokens (a setting left over next to a Secret of tokens) would serve a caller
     * without a token with every role, so the tokens would bind only those who send one: no start.
     */
    @Test
    void openWithTokensConfiguredStopsTheStart() {
        Map<String, AuthConfig.Token> tokens = Map.of("mail-viewer",
                new Token(hash("s3cret-view"), List.of("viewer"), Optional.of("mail.*"), Optional.empty()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ConfiguredTokens(new Config(tokens, true, false)));
        assertTrue(e.getMessage().contains("jobfoundry.auth.open=true"), e.getMessage());
        assertTrue(e.getMessage().contains("leave it false"), e.getMessage());
        assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
        assertFalse(new ConfiguredTokens(new Config(tokens, false, false)).open());
    }
}
