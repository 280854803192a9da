package io.jobfoundry.bench.http;

import java.io.IOException;
import java.net.URI;

/**
 * Which HTTP client the bench drives the service with. {@code raw} is the default because it
 * costs the 2-core machine less CPU per call than the JDK's client (measure it yourself with
 * {@code load client}); the JDK's is kept to show that the figures do not hinge on the client.
 */
public enum HttpClientKind {
    /** {@link RawHttp1Connection}: blocking sockets, HTTP/1.1 keep-alive, nothing else. */
    RAW,
    /** {@link java.net.http.HttpClient}, HTTP/1.1, one client shared by every connection. */
    JDK;

    public static HttpClientKind parse(String name) {
        return valueOf(name.toUpperCase(java.util.Locale.ROOT));
    }

    /** A factory of connections to {@code base} ({@code http://host:port}). */
    public ConnectionFactory factory(URI base) {
        return switch (this) {
            case RAW -> () -> new RawHttp1Connection(base);
            case JDK -> new JdkConnections(base);
        };
    }

    /** Opens connections; each is used by one thread. */
    @FunctionalInterface
    public interface ConnectionFactory {
        HttpConnection open() throws IOException;
    }
}
