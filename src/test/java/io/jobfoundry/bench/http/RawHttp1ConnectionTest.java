package io.jobfoundry.bench.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The bench's HTTP client against canned answers: lengths, chunks, no body, keep-alive and close. */
class RawHttp1ConnectionTest {

    @Test
    void readsEveryFramingTheServiceUsesOverOneConnection() throws Exception {
        List<String> answers = List.of(
                "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"id\":\"a\"}\n",
                "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4;ext=1\r\n[{\"x\r\n3\r\n\":1\r\n2\r\n}]\r\n0\r\n\r\n",
                "HTTP/1.1 204 No Content\r\n\r\n",
                "HTTP/1.1 409 Conflict\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}");
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<List<String>> requests = CompletableFuture.supplyAsync(() -> serve(server, answers));
            URI base = URI.create("http://127.0.0.1:" + server.getLocalPort());
            try (HttpConnection connection = HttpClientKind.RAW.factory(base).open()) {
                HttpAnswer created = connection.send("POST", "/v1/jobs/t", "{}");
                assertEquals(201, created.status());
                assertEquals("{\"id\":\"a\"}\n", created.text());
                assertEquals("[{\"x\":1}]", connection.send("POST", "/v1/accept", "{\"types\":[\"t\"]}").text());
                assertEquals(204, connection.send("POST", "/v1/accept", "{}").status());
                assertEquals(409, connection.send("GET", "/q/metrics", null).status());
            }
            List<String> seen = requests.get(10, TimeUnit.SECONDS);
            assertEquals("POST /v1/jobs/t HTTP/1.1", seen.get(0).lines().findFirst().orElseThrow());
            assertTrue(seen.get(0).contains("Content-Length: 2\r\n") && seen.get(0).endsWith("\r\n\r\n{}"));
            assertTrue(seen.get(3).startsWith("GET /q/metrics HTTP/1.1") && seen.get(3).contains("Content-Length: 0"));
        }
    }

    /** Answers each request on one accepted connection in turn; returns the requests as read. */
    private static List<String> serve(ServerSocket server, List<String> answers) {
        try (Socket socket = server.accept()) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            List<String> requests = new ArrayList<>();
            for (String answer : answers) {
                requests.add(readRequest(in));
                out.write(answer.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            return requests;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            head.write(in.read());
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int length = text.lines().filter(l -> l.startsWith("Content-Length: ")).mapToInt(l -> Integer.parseInt(l.substring(16)))
                .findFirst().orElse(0);
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
