package io.jobfoundry.auth;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@code /q/metrics} (quarkus.http.auth.permission.metrics in application.properties): the figures
 * name every type, so they need {@code viewer} on every type (a token confined to some types is
 * refused), unless
 * {@code jobfoundry.auth.metrics-open} lets scrapers that cannot send a token in.
 */
@ApplicationScoped
class MetricsPolicy implements HttpSecurityPolicy {

    private final ConfiguredTokens tokens;

    MetricsPolicy(ConfiguredTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public Uni<CheckResult> checkPermission(RoutingContext request, Uni<SecurityIdentity> identity,
            AuthorizationRequestContext requestContext) {
        if (tokens.metricsOpen()) {
            return Uni.createFrom().item(CheckResult.PERMIT);
        }
        // A token confined to some types must not read the gauges of the others.
        return identity.map(who -> who.hasRole(Role.VIEWER_NAME) && Caller.scope(who).isAll()
                ? CheckResult.PERMIT : CheckResult.DENY);
    }

    @Override
    public String name() {
        return "jobfoundry-metrics";
    }
}
