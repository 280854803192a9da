package io.jobfoundry.ui;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The dashboard itself is static files (META-INF/resources/ui/), served by Quarkus; its
 * security headers come from the {@code quarkus.http.filter.dashboard.*} configuration. This
 * class only sends a browser that opens the service's root, or {@code /ui} without its slash,
 * to {@code /ui/}: the page loads its scripts by relative URLs, which must resolve inside
 * {@code /ui/}.
 */
@ApplicationScoped
class DashboardRoutes {

    /**
     * Relative on purpose: from {@code /} and from {@code /ui} alike, {@code ui/} resolves to
     * {@code /ui/}, and it keeps resolving correctly behind a proxy that mounts the service
     * under a path prefix.
     */
    static final String LOCATION = "ui/";

    void install(@Observes Router router) {
        // HEAD as GET (RFC 9110): a link checker or a monitor asking with HEAD gets the redirect, not a 404.
        for (String path : new String[] {"/", "/ui"}) {
            router.get(path).handler(DashboardRoutes::redirect);
            router.head(path).handler(DashboardRoutes::redirect);
        }
    }

    private static void redirect(RoutingContext ctx) {
        // Vert.x matches a route's path with or without a trailing slash: /ui/ itself must go on
        // to the static files, or it would redirect to itself.
        String path = ctx.request().path();
        if (!path.equals("/") && !path.equals("/ui")) {
            ctx.next();
            return;
        }
        ctx.response().setStatusCode(302).putHeader(HttpHeaders.LOCATION, LOCATION).end();
    }
}
