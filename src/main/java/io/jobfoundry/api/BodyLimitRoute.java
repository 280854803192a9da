package io.jobfoundry.api;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Holds request bodies to {@code jobfoundry.api.max-body-size}, answering a larger one with a
 * problem document; it runs just before Quarkus' own limit, which would answer with an empty 413.
 * A body whose {@code Content-Length} is over the limit is refused before it is read. A body
 * without one (chunked, or HTTP/2) is read here, counted as it arrives, and refused the moment it
 * passes the limit ({@link HttpFailureRoute} answers the failure). Left to the REST layer, such a
 * body was read on a worker thread up to Quarkus' limit (10 MiB), whose cut-off surfaced as an
 * {@link java.io.IOException} that looked like a bug.
 */
@ApplicationScoped
class BodyLimitRoute {

    void install(@Observes Router router, RequestBodies bodies) {
        long limit = bodies.limit();
        String problem = Problems.json(Problems.bodyTooLarge(limit));
        // The REST layer takes a body this handler has read as it is (RoutingContext#body).
        BodyHandler counted = BodyHandler.create(false).setBodyLimit(limit);
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1).handler(ctx -> {
            String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (length == null) {
                counted.handle(ctx); // passes on at once when there is no body at all
            } else if (isOver(length, limit)) {
                refuse(ctx, problem);
            } else {
                ctx.next();
            }
        });
    }

    /**
     * Answers {@code 413} with {@code problem} and, on HTTP/1.x, closes the connection once the
     * answer is out: the rest of the body is never read, so the connection cannot carry another
     * request, and a client that writes its whole body before it reads would otherwise block for
     * good against a paused connection. (On HTTP/2 the answer ends the stream alone.)
     */
    static void refuse(RoutingContext ctx, String problem) {
        HttpServerRequest request = ctx.request();
        boolean http1 = request.version() != HttpVersion.HTTP_2;
        HttpServerResponse response = ctx.response().setStatusCode(413)
                .putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE);
        if (http1) {
            response.putHeader(HttpHeaders.CONNECTION, "close");
        }
        response.end(problem).onComplete(sent -> {
            if (http1) {
                request.connection().close();
            }
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
