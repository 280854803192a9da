package io.jobfoundry.auth;

import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.TypeScope;
import io.quarkus.runtime.Startup;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

/**
 * The configured tokens, checked at start: a hash that is not {@code sha256:} and 64 hex digits,
 * no or an unknown role, a bad type glob, or a {@code types} that names none stops the service
 * with a message naming the token and the key (never the hash). A presented token is hashed and
 * looked up by its SHA-256 digest, then compared with the one found in constant time: the lookup's
 * timing depends on the digest of what the client sent, which it cannot steer toward a configured
 * one, so it tells nothing of the configured hashes however many there are.
 */
@Startup
@ApplicationScoped
public class ConfiguredTokens {

    private static final Logger LOG = Logger.getLogger(ConfiguredTokens.class);
    private static final Pattern HASH = Pattern.compile("sha256:[0-9a-f]{64}");

    private record Entry(String name, byte[] hash, SecurityIdentity identity) {
    }

    /** A SHA-256 digest as a hash-table key: equal by content. */
    private record Digest(byte[] bytes) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Digest digest && Arrays.equals(bytes, digest.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "Digest"; // never the bytes, in case one is ever logged
        }
    }

    /** The configured tokens by their digest ({@link Digest}). */
    private final Map<Digest, Entry> entries;
    private final Map<String, SecurityIdentity> byCertificateCn;
    private final boolean open;
    private final boolean metricsOpen;
    private final SecurityIdentity anonymous = Caller.anonymous();

    /**
     * The tokens of {@code config}; {@code raw} tells a key set to an empty value from one not set,
     * which the mapping cannot: it reads both as absent.
     */
    @Inject
    ConfiguredTokens(AuthConfig config, Config raw) {
        this(config, key -> raw.getConfigValue(key).getRawValue() != null);
    }

    /** The tokens of a mapping alone, where an empty value reads as a key not set. */
    ConfiguredTokens(AuthConfig config) {
        this(config, key -> false);
    }

    private ConfiguredTokens(AuthConfig config, Predicate<String> isSet) {
        List<String> problems = new ArrayList<>();
        Map<Digest, Entry> entries = new LinkedHashMap<>();
        Map<String, SecurityIdentity> byCn = new HashMap<>();
        // Sorted: problems and the start line list tokens in a stable order.
        for (Map.Entry<String, AuthConfig.Token> named : new TreeMap<>(config.tokens()).entrySet()) {
            String name = named.getKey();
            AuthConfig.Token token = named.getValue();
            String key = "jobfoundry.auth.tokens.\"" + name + "\".";
            String hash = token.hash().trim();
            if (!HASH.matcher(hash).matches()) {
                problems.add(key + "hash must be sha256: followed by the 64 lower-case hex digits of the token's"
                        + " SHA-256 (the value given is not shown)");
            }
            Set<Role> roles = EnumSet.noneOf(Role.class);
            for (String role : token.roles()) {
                Role known = Role.named(role);
                if (known == null) {
                    problems.add(key + "roles: unknown role \"" + role.trim() + "\" (viewer, producer, worker, admin)");
                } else {
                    roles.add(known);
                }
            }
            if (token.roles().isEmpty()) {
                problems.add(key + "roles must name at least one of viewer, producer, worker, admin");
            }
            SecurityIdentity identity = Caller.identity(name, roles,
                    scope(token.types().or(() -> isSet.test(key + "types") ? Optional.of("") : Optional.empty()), key,
                            problems));
            if (HASH.matcher(hash).matches()) {
                Entry entry = new Entry(name, HexFormat.of().parseHex(hash.substring("sha256:".length())), identity);
                Entry same = entries.putIfAbsent(new Digest(entry.hash()), entry);
                if (same != null) {
                    problems.add(key + "hash is the hash of token \"" + same.name() + "\" too: one token, two names");
                }
            }
            token.certificateCn().ifPresent(cn -> {
                if (byCn.putIfAbsent(cn, identity) != null) {
                    problems.add(key + "certificate-cn \"" + cn + "\" is given to another token too");
                }
            });
        }
        if (config.open() && !config.tokens().isEmpty()) {
            // Open serves a caller without a token with every role on every type, so the tokens
            // would bind only those who choose to send one: a leftover setting beside a Secret of
            // tokens must not quietly undo them.
            problems.add("jobfoundry.auth.open=true serves every client without a token, with every role on every"
                    + " type, which would make the configured tokens meaningless: leave it false to require them");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid configuration: " + String.join("; ", problems));
        }
        this.entries = Map.copyOf(entries);
        this.byCertificateCn = Map.copyOf(byCn);
        this.open = config.open();
        this.metricsOpen = config.metricsOpen();
        if (open) {
            LOG.warn("jobfoundry.auth.open=true: every client that reaches the port is served without a token,"
                    + " with every role on every type");
        } else if (entries.isEmpty()) {
            LOG.info("no token configured (jobfoundry.auth.tokens): protected mode, only clients on loopback are served");
        } else {
            LOG.infof("%d token(s) configured: %s", entries.size(),
                    String.join(", ", entries.values().stream().map(Entry::name).toList()));
        }
    }

    /**
     * The types a token is confined to: every type only when {@code types} is absent. A key that
     * is there but names no type ({@code types=}, {@code types=,}, {@code types=" , "}: a Secret's
     * key left empty, say) is a mistake, not a wish for every type, and stops the start. Otherwise as SmallRye's list reads it: empty entries are
     * dropped ({@code email*,}), a blank one beside others is a bad glob.
     */
    private static TypeScope scope(Optional<String> types, String key, List<String> problems) {
        if (types.isEmpty()) {
            return TypeScope.all();
        }
        List<String> globs = Arrays.stream(types.get().split(",", -1)).filter(g -> !g.isEmpty()).map(String::trim)
                .toList();
        if (globs.stream().allMatch(String::isEmpty)) {
            problems.add(key + "types names no type: give type names or globs (e.g. email*), or leave the key out"
                    + " for every type");
            return TypeScope.all();
        }
        try {
            return TypeScope.of(globs);
        } catch (InvalidJobRequestException e) {
            problems.add(key + "types: each is a type name or a glob of one with * and ?, e.g. email*");
            return TypeScope.all();
        }
    }

    /** The identity of the token presented, or null if it is none of the configured ones. */
    SecurityIdentity match(String token) {
        byte[] presented = sha256(token);
        Entry entry = entries.get(new Digest(presented));
        return entry != null && MessageDigest.isEqual(presented, entry.hash()) ? entry.identity() : null;
    }

    /** The identity a client certificate with subject CN {@code cn} stands for, or null. */
    SecurityIdentity byCertificateCn(String cn) {
        return byCertificateCn.get(cn);
    }

    /** Whether any token stands for a client certificate: then HTTPS asks clients for one ({@link MutualTls}). */
    boolean anyCertificateCn() {
        return !byCertificateCn.isEmpty();
    }

    SecurityIdentity anonymous() {
        return anonymous;
    }

    /** No token configured. */
    public boolean none() {
        return entries.isEmpty();
    }

    /** {@code jobfoundry.auth.open}: everyone is served without a token. */
    public boolean open() {
        return open;
    }

    /** Protected mode: no token and not open, so only loopback clients are served. */
    public boolean protectedMode() {
        return !open && entries.isEmpty();
    }

    boolean metricsOpen() {
        return metricsOpen;
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
