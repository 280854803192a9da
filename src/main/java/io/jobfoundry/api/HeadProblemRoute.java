package io.jobfoundry.api;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * A {@code HEAD} answered with an error names the type its {@code GET} would have:
 * {@code application/problem+json}. Quarkus REST writes no entity for {@code HEAD}, so
 * {@link ProblemBodyWriter}, which names the type as it writes, never runs, and the answer kept the
 * resource's {@code application/json}. Every error the API sends is a problem document, so an error
 * status is enough to go by (not so {@code /q/health}'s {@code 503}, which is its own JSON: the
 * route covers {@code /v1/} only). Installed for {@code HEAD} only: other requests pay nothing.
 */
@ApplicationScoped
class HeadProblemRoute {

    void install(@Observes Router router) {
        router.route("/v1/*").method(HttpMethod.HEAD).order(Integer.MIN_VALUE).handler(ctx -> {
            HttpServerResponse response = ctx.response();
            // The routing context's hook, not the response's own, which holds one handler and
            // which Quarkus' handlers set for themselves.
            ctx.addHeadersEndHandler(ignored -> {
                if (response.getStatusCode() >= 400) {
                    response.headers().set(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE);
                }
            });
            ctx.next();
        });
    }
}
