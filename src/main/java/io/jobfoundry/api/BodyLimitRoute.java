package io.jobfoundry.api;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;

/**
 * Holds request bodies to {@code jobfoundry.api.max-body-size}, answering a larger one with a
 * problem document; it runs just before Quarkus' own limit, which would answer with an empty 413.
 * It also refuses a body the REST layer would misread: one sent with a {@code Content-Encoding}
 * (bodies are not decoded: gzip was read as JSON and refused for its bytes, and a body marked
 * {@code br} that was plain JSON was taken). (Two {@code Content-Type} headers, of which the REST
 * layer would read the first, are {@link RepeatedHeaderRoute}'s.)
 * A body whose {@code Content-Length} is over the limit is refused before it is read. A chunked
 * HTTP/1.1 body is read here, counted as it arrives, refused the moment it passes the limit, and
 * otherwise handed to the REST layer whole ({@link RoutingContext#setBody}). Left to the REST
 * layer, such a body was read up to Quarkus' limit (10 MiB), whose cut-off surfaced as an
 * {@link java.io.IOException} that looked like a bug. (HTTP/2 bodies without a length stay with
 * the REST layer, which counts them once read: {@link RequestBodies}.)
 */
@ApplicationScoped
class BodyLimitRoute {

    /** How long a refused body may still be read and dropped before its connection is closed. */
    private static final long LINGER_MILLIS = 2_000;

    void install(@Observes Router router, RequestBodies bodies) {
        long limit = bodies.limit();
        String problem = Problems.json(Problems.bodyTooLarge(limit));
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1).handler(ctx -> {
            HttpServerRequest request = ctx.request();
            String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
            Map<String, Object> misread = hasBody(request, length) ? misread(request) : null;
            if (misread != null) {
                refuse(ctx, (Integer) misread.get("status"), Problems.json(misread));
            } else if (length != null) {
                if (isOver(length, limit)) {
                    refuse(ctx, 413, problem);
                } else {
                    ctx.next();
                }
            } else if (request.version() != HttpVersion.HTTP_2 && request.headers().contains(HttpHeaders.TRANSFER_ENCODING)
                    && !request.isEnded()) {
                readCounted(ctx, limit, problem);
            } else {
                ctx.next(); // no body, or HTTP/2's
            }
        });
    }

    private static boolean hasBody(HttpServerRequest request, String length) {
        if (length != null) {
            return !length.trim().equals("0");
        }
        // HTTP/2 frames a body without either header: one follows unless the headers ended the request.
        return request.version() == HttpVersion.HTTP_2 ? !request.isEnded()
                : request.headers().contains(HttpHeaders.TRANSFER_ENCODING);
    }

    /** Why the REST layer would misread the body, as a problem document; {@code null} if it would not. */
    private static Map<String, Object> misread(HttpServerRequest request) {
        String encoding = request.getHeader(HttpHeaders.CONTENT_ENCODING);
        if (encoding != null && !encoding.trim().equalsIgnoreCase("identity")) {
            return Problems.document(ProblemType.UNSUPPORTED_MEDIA_TYPE, "request bodies are read as sent: send the "
                    + "JSON without a Content-Encoding (it was " + Problems.printable(encoding) + ")");
        }
        return null;
    }

    /** Reads a chunked body, refusing it once it passes {@code limit}; then the REST layer takes it. */
    private static void readCounted(RoutingContext ctx, long limit, String problem) {
        HttpServerRequest request = ctx.request();
        Buffer body = Buffer.buffer();
        request.handler(chunk -> {
            if (body.length() + (long) chunk.length() > limit) {
                refuse(ctx, 413, problem); // takes the request's handlers over
            } else {
                body.appendBuffer(chunk);
            }
        });
        request.endHandler(end -> {
            ctx.setBody(body); // even an empty one: the REST layer must not wait for it again
            ctx.next();
        });
        request.exceptionHandler(e -> {
            if (!(e instanceof HttpClosedException)) { // a client that went away is owed nothing
                ctx.fail(400, e); // a malformed chunk
            }
        });
        if ("100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))) {
            ctx.response().writeContinue();
            request.headers().remove(HttpHeaders.EXPECT); // answered: the REST layer must not answer it again
        }
        request.resume();
    }

    /**
     * Answers {@code status} with {@code problem}. On HTTP/1.x the connection is closed afterwards
     * (the answer says so): the rest of the body is never used, so the connection cannot carry
     * another request. It is closed when the body has ended, or after {@value #LINGER_MILLIS} ms,
     * and what still arrives meanwhile is read and dropped, as nginx's lingering close does:
     * closing on unread bytes would make TCP reset the connection, and a client still writing its
     * body could lose the answer with it; left paused, such a client would block for good. (On
     * HTTP/2 the answer ends the stream alone.)
     */
    private static void refuse(RoutingContext ctx, int status, String problem) {
        HttpServerRequest request = ctx.request();
        HttpServerResponse response = ctx.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE);
        if (request.version() == HttpVersion.HTTP_2) {
            response.end(problem);
            return;
        }
        response.putHeader(HttpHeaders.CONNECTION, "close");
        Future<Void> sent = response.end(problem);
        Runnable close = () -> sent.onComplete(done -> request.connection().close());
        if (request.isEnded()) {
            close.run();
            return;
        }
        long timer = ctx.vertx().setTimer(LINGER_MILLIS, fired -> close.run());
        request.handler(dropped -> {
        });
        request.exceptionHandler(closed -> ctx.vertx().cancelTimer(timer));
        request.endHandler(end -> {
            ctx.vertx().cancelTimer(timer);
            close.run();
        });
        request.resume();
    }

    private static boolean isOver(String length, long limit) {
        try {
            return Long.parseLong(length.trim()) > limit;
        } catch (NumberFormatException e) {
            return false; // Vert.x refuses a malformed Content-Length itself
        }
    }
}
