package io.jobfoundry.auth;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A bearer token's identity: its hash against the configured ones ({@link ConfiguredTokens#match}). Answered
 * on the calling thread: a SHA-256 of a few dozen bytes costs less than a hop to a worker thread.
 * An unknown token fails authentication ({@code 401}); the failure names nothing of the token.
 */
@ApplicationScoped
class TokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    private final ConfiguredTokens tokens;

    TokenIdentityProvider(ConfiguredTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        SecurityIdentity identity = tokens.match(request.getToken().getToken());
        return identity == null ? Uni.createFrom().failure(new AuthenticationFailedException("unknown token"))
                : Uni.createFrom().item(identity);
    }
}
