package io.jobfoundry.bench.http;

import java.io.IOException;

/**
 * One keep-alive connection to the service, used by one thread at a time (a producer or a
 * worker): the bench models each client as its own connection, as real workers are.
 */
public interface HttpConnection extends AutoCloseable {

    /** Sends a request with a JSON body (or none when {@code json} is null) and reads the whole answer. */
    HttpAnswer send(String method, String path, String json) throws IOException;

    @Override
    void close();
}
