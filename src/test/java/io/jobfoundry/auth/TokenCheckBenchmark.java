package io.jobfoundry.auth;

import io.quarkus.security.identity.SecurityIdentity;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What checking a bearer token costs the service per request: the presented token hashed with
 * SHA-256 and compared, in constant time, with every configured hash ({@link ConfiguredTokens#match}),
 * for a service with one token and with many. The rest of a request's security work (Quarkus
 * Security's authorizer, the role check, the identity in the request) runs alike with or without
 * a token, so this is the difference a token makes; {@code bench/request-cost.sh . .+auth} measures
 * the whole request beside it. In this package because {@code match} is the auth package's own.
 *
 * <p>{@code bench/jmh.sh TokenCheckBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TokenCheckBenchmark {

    private record Token(String hash, List<String> roles, Optional<String> types, Optional<String> certificateCn)
            implements AuthConfig.Token {
    }

    private record Config(Map<String, AuthConfig.Token> tokens, boolean open, boolean metricsOpen)
            implements AuthConfig {
    }

    /** Tokens configured; the one presented is the last, so every comparison runs (they all do anyway). */
    @Param({"1", "50"})
    int configured;

    private ConfiguredTokens tokens;
    private String presented;

    @Setup
    public void configure() {
        Map<String, AuthConfig.Token> byName = new LinkedHashMap<>();
        for (int i = 0; i < configured; i++) {
            // A minted token's shape: 43 characters of URL-safe Base64 (32 random bytes).
            String token = "jf_" + "x".repeat(36) + String.format("%04d", i);
            byName.put("service-" + i, new Token("sha256:" + HexFormat.of().formatHex(ConfiguredTokens.sha256(token)),
                    List.of("worker"), Optional.of("email*"), Optional.empty()));
            presented = token;
        }
        tokens = new ConfiguredTokens(new Config(byName, false, false));
        if (tokens.match(presented) == null) {
            throw new IllegalStateException("the presented token must match");
        }
    }

    @Benchmark
    public SecurityIdentity knownToken() {
        return tokens.match(presented);
    }

    @Benchmark
    public SecurityIdentity unknownToken() {
        return tokens.match("jf_not-one-of-them-but-just-as-long-000000");
    }
}
