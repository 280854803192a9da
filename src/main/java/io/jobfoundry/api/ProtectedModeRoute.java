package io.jobfoundry.api;

import io.jobfoundry.auth.ConfiguredTokens;
import io.jobfoundry.auth.Loopback;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Protected mode (Redis' answer to a service started without a password): with no token
 * configured and {@code jobfoundry.auth.open} false, a request that is not local ({@link Loopback}:
 * not from loopback, or from a local browser for a page that is not this service's) gets
 * {@code 403} saying why and how to configure tokens, before its request is read;
 * {@code /q/health} stays open for probes. Not installed at all otherwise, so it costs a served
 * request nothing.
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
            // After RepeatedHeaderRoute: of two Host headers, the verdict would judge one.
            router.route().order(Integer.MIN_VALUE + 1).handler(ProtectedModeRoute::check);
        }
    }

    private static void check(RoutingContext ctx) {
        Loopback.Verdict verdict = Loopback.verdict(ctx);
        if (verdict == Loopback.Verdict.LOCAL || isHealth(ctx.normalizedPath())) {
            ctx.next();
            return;
        }
        SecurityProblems.end(ctx, Problems.document(ProblemType.FORBIDDEN, detail(verdict, ctx)));
    }

    /** Why the request is not served; the headers at fault are quoted bounded ({@link Problems#printable}). */
    private static String detail(Loopback.Verdict verdict, RoutingContext ctx) {
        return switch (verdict) {
            case HOST_NOT_LOOPBACK -> "the request's Host " + Problems.printable(host(ctx)) + " is not a loopback"
                    + " name (localhost, *.localhost, 127.0.0.0/8, [::1]), so it may come from a web page whose name"
                    + " only resolves to this machine (DNS rebinding); " + SecurityProblems.PROTECTED;
            case PROXIED -> "the request carries a proxy's headers (Forwarded, X-Forwarded-For, X-Forwarded-Host or"
                    + " X-Real-IP), so it was relayed for a client that may not be on this machine, or a web page"
                    + " added them to pass for one; " + SecurityProblems.PROTECTED;
            case OTHER_ORIGIN -> "the request came from another site's page (its Origin "
                    + Problems.printable(ctx.request().getHeader(HttpHeaders.ORIGIN)) + " is not this service's own),"
                    + " sent by a browser on this machine on that page's behalf; " + SecurityProblems.PROTECTED;
            case REMOTE_PEER, LOCAL -> SecurityProblems.PROTECTED;
        };
    }

    /** The Host as Loopback read it, or as sent if it could not be read. */
    private static String host(RoutingContext ctx) {
        HostAndPort host = Loopback.host(ctx.request());
        return host == null ? ctx.request().getHeader(HttpHeaders.HOST)
                : host.port() < 0 ? host.host() : host.host() + ":" + host.port();
    }

    private static boolean isHealth(String path) {
        return path.equals("/q/health") || path.startsWith("/q/health/");
    }
}
