package io.jobfoundry.api;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.core.Response;

/**
 * Requests the router refuses before any resource runs — above all an HTTP/1.1 request without a
 * valid {@code Host} header — fail their routing context with a 4xx, which Quarkus' last-resort
 * handler answers with an error page ("500 - Internal Server Error", or JSON with a stack trace)
 * under the 4xx status. This failure handler, registered ahead of it, answers them as problem
 * documents like every other error of the API. A 5xx, or an answer already begun, goes on to
 * Quarkus, which logs it.
 *
 * <p>Not reached: what is refused before the router exists for the request. Netty's decoder answers
 * a request line over 4 KiB (414) or a malformed {@code Content-Length} (400) itself, and Quarkus
 * answers a URI that {@link java.net.URI} rejects ({@code %ZZ}) with an empty 400 before routing.
 */
@ApplicationScoped
class HttpFailureRoute {

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(HttpFailureRoute::answer);
    }

    private static void answer(RoutingContext ctx) {
        int status = ctx.statusCode();
        if (status < 400 || status > 499 || ctx.response().headWritten()) {
            ctx.next();
            return;
        }
        Response.StatusType type = Response.Status.fromStatusCode(status);
        String title = type == null ? "Client Error" : type.getReasonPhrase();
        String message = ctx.failure() == null ? null : ctx.failure().getMessage();
        // The router's own messages name the rule the request broke; they quote nothing the client sent.
        String detail = message == null ? "the request was refused" : message.replaceAll("\\p{Cntrl}", "?");
        ctx.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE)
                .end(Problems.json(Problems.document("about:blank", title, status, detail)));
    }
}
