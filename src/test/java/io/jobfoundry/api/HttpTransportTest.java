package io.jobfoundry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Requests as other clients send them: HTTP/2 (upgraded from HTTP/1.1, as Java's client does on
 * plain http), empty chunked bodies, {@code Expect: 100-continue}. BodyLimitRoute reads some
 * bodies itself, and each of these once went wrong there.
 */
@QuarkusTest
class HttpTransportTest {

    private static final String T = Api.type("transport");

    private static URI uri(String path) {
        return URI.create("http://localhost:" + io.restassured.RestAssured.port + path);
    }

    @Test
    void http2RequestsWithoutABodyAreAnsweredAsOverHttp1() throws Exception {
        Api.put(T, "h2", "{}").statusCode(201);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        // The first request upgrades the connection; the ones after it travel as HTTP/2 streams.
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> got = client.send(HttpRequest.newBuilder(uri("/v1/jobs/" + T + "/h2")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, got.statusCode(), got.body());
        }
        HttpResponse<String> created = client.send(HttpRequest.newBuilder(uri("/v1/jobs/" + T))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"data\":{\"n\":2}}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        assertEquals(HttpClient.Version.HTTP_2, created.version());
        HttpResponse<String> cancelled = client.send(HttpRequest.newBuilder(uri("/v1/jobs/" + T + "/h2/cancel"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, cancelled.statusCode(), cancelled.body());
        HttpResponse<String> removed = client.send(HttpRequest.newBuilder(uri("/v1/jobs/" + T + "/h2")).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(204, removed.statusCode(), removed.body());
    }

    @Test
    void anEmptyChunkedBodyIsAnEmptyBody() throws Exception {
        Api.put(T, "empty", "{}").statusCode(201);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest cancel = HttpRequest.newBuilder(uri("/v1/jobs/" + T + "/empty/cancel"))
                .timeout(Duration.ofSeconds(20)) // it used to wait 60 s for a body that had ended
                .POST(HttpRequest.BodyPublishers.ofInputStream(InputStream::nullInputStream)).build();
        HttpResponse<String> answer = client.send(cancel, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("\"result\":\"cancelled\""), answer.body());
    }

    @Test
    void aChunkedBodyAfterExpectContinueIsInvitedOnce() throws Exception {
        try (Socket socket = new Socket("localhost", io.restassured.RestAssured.port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(("PUT /v1/jobs/" + T + "/expect HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String invitation = new String(in.readNBytes("HTTP/1.1 100 Continue\r\n\r\n".length()), StandardCharsets.US_ASCII);
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", invitation);
            String json = "{\"data\":{\"sent\":\"after the invitation\"}}";
            out.write((Integer.toHexString(json.length()) + "\r\n" + json + "\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String rest = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(rest.startsWith("HTTP/1.1 201"), "one invitation, then the answer: " + rest);
        }
        Api.get(T, "expect").statusCode(200).body("data.sent", org.hamcrest.Matchers.equalTo("after the invitation"));
    }
}
