package io.jobfoundry.bench.http;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/** Reads the CR LF terminated lines of a text protocol (HTTP/1.1 heads, beanstalkd's replies). */
public final class Lines {

    private Lines() {
    }

    /**
     * The next line without its CR LF (a bare LF ends one too), as ASCII.
     *
     * @param peer who closed the connection, for the error when it ends mid-line
     */
    public static String read(InputStream in, String peer) throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException(peer + " closed the connection");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
