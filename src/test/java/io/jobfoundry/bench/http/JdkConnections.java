package io.jobfoundry.bench.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Connections through one shared {@link HttpClient}: the JDK client pools keep-alive connections
 * itself and holds one per request in flight, so N threads end up on N connections.
 */
final class JdkConnections implements HttpClientKind.ConnectionFactory {

    private static final Duration TIMEOUT = Duration.ofSeconds(330); // above the longest accept wait (300 s)

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    JdkConnections(URI base) {
        this.base = base;
    }

    @Override
    public HttpConnection open() {
        return new HttpConnection() {
            @Override
            public HttpAnswer send(String method, String path, String json) throws IOException {
                HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT);
                if (json == null) {
                    request.method(method, HttpRequest.BodyPublishers.noBody());
                } else {
                    request.header("Content-Type", "application/json")
                            .method(method, HttpRequest.BodyPublishers.ofString(json));
                }
                try {
                    HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                    return new HttpAnswer(response.statusCode(), response.body());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted during " + method + " " + path);
                }
            }

            @Override
            public void close() {
                // The shared client owns the sockets.
            }
        };
    }
}
