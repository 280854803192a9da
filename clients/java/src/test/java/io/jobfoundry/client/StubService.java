package io.jobfoundry.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tiny HTTP server standing in for the service, for behaviour the real one cannot be made to show on demand
 * (a 503, a given answer at a given moment). Each request is recorded; the handler decides the answer.
 */
final class StubService implements AutoCloseable {

    record Request(String method, String path, Map<String, List<String>> headers, String body) {
        String header(String name) {
            for (var e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue().get(0);
                }
            }
            return null;
        }
    }

    record Reply(int status, String contentType, String body, Map<String, String> headers) {
        static Reply json(int status, String body) {
            return new Reply(status, "application/json", body, Map.of());
        }

        static Reply problem(int status, String body) {
            return new Reply(status, "application/problem+json", body, Map.of());
        }
    }

    interface Handler {
        Reply answer(Request request) throws Exception;
    }

    final List<Request> requests = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    StubService(Handler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/", exchange -> serve(exchange, handler));
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Request> requests(String pathPrefix) {
        return requests.stream().filter(r -> r.path().startsWith(pathPrefix)).toList();
    }

    private void serve(HttpExchange exchange, Handler handler) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery()),
                    Map.copyOf(exchange.getRequestHeaders()), body);
            requests.add(request);
            Reply reply;
            try {
                reply = handler.answer(request);
            } catch (Exception e) {
                reply = Reply.problem(500, "{\"detail\":\"stub: " + e + "\"}");
            }
            reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            if (reply.body() == null) {
                exchange.sendResponseHeaders(reply.status(), -1);
                return;
            }
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", reply.contentType());
            exchange.sendResponseHeaders(reply.status(), bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** A job object as the service writes it. */
    static String job(String type, String id, String state) {
        return "{\"type\":\"" + type + "\",\"id\":\"" + id + "\",\"state\":\"" + state + "\",\"result\":null,\"data\":null,"
                + "\"group\":\"\",\"priority\":\"low\",\"scheduledAt\":\"2026-11-21T10:00:00Z\","
                + "\"createdAt\":\"2026-11-21T10:00:00Z\",\"updatedAt\":\"2026-11-21T10:00:00Z\",\"startedAt\":null,"
                + "\"finishedAt\":null,\"repeat\":null,\"attempt\":0,\"maxAttempts\":25,\"lastError\":null,"
                + "\"resubmit\":false,\"worker\":null}";
    }
}
