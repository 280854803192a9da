package io.jobfoundry.api;

import io.jobfoundry.auth.Loopback;
import io.jobfoundry.auth.ConfiguredTokens;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Protected mode (Redis' answer to a service started without a password): with no token
 * configured and {@code jobfoundry.auth.open} false, a client that is not on loopback gets
 * {@code 403} saying how to configure tokens, before its request is read; {@code /q/health} stays
 * open for probes. Not installed at all otherwise, so it costs a served request nothing.
 *
 * <p>Also answers, as problem documents, the {@code 401}/{@code 403} of checks Quarkus makes
 * outside JAX-RS ({@code /q/metrics}), which would otherwise be empty.
 */
@ApplicationScoped
class ProtectedModeRoute {

    void install(@Observes Router router, ConfiguredTokens tokens) {
        router.route().order(Integer.MIN_VALUE).failureHandler(ctx -> {
            if (!SecurityProblems.answer(ctx)) {
                ctx.next();
            }
        });
        if (tokens.protectedMode()) {
            router.route().order(Integer.MIN_VALUE).handler(ProtectedModeRoute::check);
        }
    }

    private static void check(RoutingContext ctx) {
        if (Loopback.is(ctx) || isHealth(ctx.normalizedPath())) {
            ctx.next();
            return;
        }
        SecurityProblems.end(ctx, Problems.document(ProblemType.FORBIDDEN, SecurityProblems.PROTECTED));
    }

    private static boolean isHealth(String path) {
        return path.equals("/q/health") || path.startsWith("/q/health/");
    }
}
