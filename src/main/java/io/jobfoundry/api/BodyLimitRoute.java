package io.jobfoundry.api;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;

/**
 * Refuses a body whose {@code Content-Length} is over {@code jobfoundry.api.max-body-size} before
 * it is read, with a problem document; it runs just before Quarkus' own limit, which would answer
 * with an empty 413. Chunked bodies are counted when read ({@link RequestBodies}).
 */
@ApplicationScoped
class BodyLimitRoute {

    void install(@Observes Router router, RequestBodies bodies) {
        long limit = bodies.limit();
        Map<String, Object> document = Problems.document(ProblemType.BODY_TOO_LARGE,
                "request body larger than " + limit + " bytes");
        document.put("limit", limit);
        String problem = Problems.json(document);
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1).handler(ctx -> {
            String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (length != null && isOver(length, limit)) {
                ctx.response().setStatusCode(413)
                        .putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE)
                        .putHeader(HttpHeaders.CONNECTION, "close")
                        .end(problem);
                return;
            }
            ctx.next();
        });
    }

    private static boolean isOver(String length, long limit) {
        try {
            return Long.parseLong(length.trim()) > limit;
        } catch (NumberFormatException e) {
            return false; // Vert.x refuses a malformed Content-Length itself
        }
    }
}
