package io.jobfoundry.api;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * Refuses ({@code 400}) a request with more than one {@code Host}, {@code Authorization} or
 * {@code Content-Type} header, before anything reads them. Of two, each reader takes the first:
 * protected mode judged the first Host and served {@code Host: localhost} followed by
 * {@code Host: evil.example}, which RFC 9112 asks a server to refuse; of two tokens the first
 * decided, so behind a gateway that adds its own {@code Authorization} after a client's, the
 * client's token would be the one that counts (RFC 6750 calls a request carrying two a malformed
 * one); and the REST layer would read a body as the first of two media types. Nothing of the
 * request is quoted.
 */
@ApplicationScoped
class RepeatedHeaderRoute {

    private static final List<String> ONCE = List.of("Host", "Authorization", "Content-Type");

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(RepeatedHeaderRoute::check);
    }

    private static void check(RoutingContext ctx) {
        MultiMap headers = ctx.request().headers();
        for (String name : ONCE) {
            int count = headers.getAll(name).size();
            if (count > 1) {
                ctx.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE)
                        .end(Problems.json(Problems.document(ProblemType.INVALID_REQUEST,
                                "a request has one " + name + " header, not " + count)));
                return;
            }
        }
        ctx.next();
    }
}
