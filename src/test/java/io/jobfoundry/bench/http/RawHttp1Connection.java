package io.jobfoundry.bench.http;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The least HTTP/1.1 client that can drive the API: one blocking socket, keep-alive, a request
 * written in one flush, answers read by {@code Content-Length} or chunked encoding. On a 2-core
 * machine every cycle the client spends is taken from the server it measures, so this client
 * does no pooling, no async hand-offs and no header maps.
 */
final class RawHttp1Connection implements HttpConnection {

    private static final int READ_TIMEOUT_MILLIS = 330_000; // above the longest accept wait (300 s)

    private final InetSocketAddress address;
    private final String hostHeader;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    RawHttp1Connection(URI base) throws IOException {
        this.address = new InetSocketAddress(base.getHost(), base.getPort());
        this.hostHeader = base.getHost() + ":" + base.getPort();
        connect();
    }

    private void connect() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true); // requests are small and written whole: never wait for Nagle
        socket.setSoTimeout(READ_TIMEOUT_MILLIS);
        socket.connect(address, 5_000);
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
    }

    @Override
    public HttpAnswer send(String method, String path, String json) throws IOException {
        if (socket == null) {
            connect();
        }
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(128).append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ")
                .append(hostHeader).append("\r\n");
        if (json != null) {
            head.append("Content-Type: application/json\r\n");
        }
        head.append("Content-Length: ").append(body.length).append("\r\n\r\n");
        out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        return readAnswer();
    }

    private HttpAnswer readAnswer() throws IOException {
        String statusLine = readLine();
        int status = Integer.parseInt(statusLine.substring(9, 12)); // "HTTP/1.1 200 OK"
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> {
                }
            }
        }
        byte[] body;
        if (status == 204 || status == 304 || status / 100 == 1) {
            body = new byte[0];
        } else if (chunked) {
            body = readChunked();
        } else if (length >= 0) {
            body = in.readNBytes((int) length);
            if (body.length != length) {
                throw new EOFException("connection closed inside a body");
            }
        } else {
            body = in.readAllBytes(); // no length: the body runs to the end of the connection
            close = true;
        }
        if (close) {
            close();
        }
        return new HttpAnswer(status, body);
    }

    private byte[] readChunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine();
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                while (!readLine().isEmpty()) {
                    // trailers: none that the bench needs
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length != size) {
                throw new EOFException("connection closed inside a chunk");
            }
            body.write(chunk);
            readLine(); // the CRLF after the chunk
        }
    }

    private String readLine() throws IOException {
        return Lines.read(in, "the server");
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a socket we are done with: nothing to recover
            }
            socket = null;
        }
    }
}
