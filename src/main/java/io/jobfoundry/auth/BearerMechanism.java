package io.jobfoundry.auth;

import io.jobfoundry.Futures;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Who a request is: {@code Authorization: Bearer <token>} (checked by {@link TokenIdentityProvider}),
 * else — in open mode, or in protected mode for a local request ({@link Loopback}: loopback peer,
 * loopback Host, no other site's Origin) — the anonymous caller with every role, else nobody, which a
 * role check answers with {@code 401} and this mechanism's {@code WWW-Authenticate: Bearer}.
 * Client certificates are Quarkus' own mTLS mechanism's, mapped to tokens by
 * {@link CertificateIdentityProvider}.
 */
@ApplicationScoped
class BearerMechanism implements HttpAuthenticationMechanism {

    private static final String BEARER = "Bearer ";
    private static final String REALM = "Bearer realm=\"jobfoundry\"";
    private static final ChallengeData CHALLENGE = new ChallengeData(401, "WWW-Authenticate", REALM);

    /** The api package's unauthorized problem (ProblemType.UNAUTHORIZED), fixed text: nothing of the request. */
    private static final String UNAUTHORIZED = "{\"type\":\"tag:jobfoundry.io,2026:problem/unauthorized\","
            + "\"title\":\"A valid token is required\",\"status\":401,\"detail\":\"send Authorization: Bearer"
            + " <token> with a token configured under jobfoundry.auth.tokens; none was sent, or it is not one of them\"}";

    /** A refusal after authentication fails the request, for the failure handlers to answer. */
    private static final BiConsumer<RoutingContext, Throwable> FAIL_THE_REQUEST = (ctx, failure) -> {
        if (!ctx.failed()) {
            ctx.fail(Futures.cause(failure));
        }
    };

    private final ConfiguredTokens tokens;

    BearerMechanism(ConfiguredTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext ctx, IdentityProviderManager identityProviderManager) {
        // With no token configured there is nothing to check a header against: a client library
        // set up with a token keeps working against a service on loopback not yet given tokens.
        String header = tokens.none() ? null : ctx.request().getHeader(HttpHeaders.AUTHORIZATION);
        if (header != null) {
            if (!header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
                return Uni.createFrom().failure(new AuthenticationFailedException("not a Bearer token"));
            }
            TokenAuthenticationRequest request = new TokenAuthenticationRequest(
                    new TokenCredential(header.substring(BEARER.length()).trim(), "bearer"));
            return identityProviderManager.authenticate(HttpSecurityUtils.setRoutingContextAttribute(request, ctx))
                    .onItem().invoke(identity -> failLaterRefusals(ctx));
        }
        if (tokens.open() || tokens.protectedMode() && Loopback.is(ctx)) {
            failLaterRefusals(ctx);
            return Uni.createFrom().item(tokens.anonymous());
        }
        return Uni.createFrom().nullItem();
    }

    /**
     * Once the caller is known, the request's failure handler for refusals (put there by Quarkus
     * before authentication) becomes one that fails the request, so that the failure handlers
     * (SecurityProblems) answer a later refusal: what Quarkus REST's own filter does next, for
     * every request. Done here, that filter finds nothing to do, and skips the cost that came with
     * it: it built a matcher of every resource path per request to name the request's metric in
     * case of a later refusal (7% of a GET's event-loop CPU, JFR), when every later refusal here
     * is made by a resource's checks, which name the metric themselves, or by /q/metrics' policy,
     * a path with no template (AuthMatrixTest.refusedRequestsAreCountedUnderTheirTemplate).
     * Authentication's own failures keep Quarkus' handler: a token refused is answered as before.
     */
    private static void failLaterRefusals(RoutingContext ctx) {
        ctx.put(QuarkusHttpUser.AUTH_FAILURE_HANDLER, FAIL_THE_REQUEST);
    }

    /**
     * A 401 outside JAX-RS ({@code /q/metrics}) as the same problem document the resources answer
     * (SecurityProblems); Quarkus would send it with an empty body.
     */
    @Override
    public Uni<Boolean> sendChallenge(RoutingContext context) {
        if (!context.response().headWritten()) {
            context.response().setStatusCode(CHALLENGE.status).putHeader("WWW-Authenticate", REALM)
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/problem+json").end(UNAUTHORIZED);
        }
        return Uni.createFrom().item(true);
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(CHALLENGE);
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(TokenAuthenticationRequest.class);
    }
}
