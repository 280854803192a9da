package io.jobfoundry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A plain-HTTP reader of a Server-Sent Events stream: events are parsed on a thread of their own. */
final class SseClient implements AutoCloseable {

    record Event(String name, String id, String data) {
    }

    private static final Event END = new Event(null, null, null);
    private static final long PATIENCE_SECONDS = 30;

    private final HttpResponse<Stream<String>> response;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> comments = new LinkedBlockingQueue<>();

    private SseClient(HttpResponse<Stream<String>> response) {
        this.response = response;
        Thread reader = new Thread(this::read, "sse-test-reader");
        reader.setDaemon(true);
        reader.start();
    }

    static HttpClient http() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(PATIENCE_SECONDS)).build();
    }

    static URI uri(String path) {
        return URI.create("http://localhost:" + RestAssured.port + path);
    }

    /** Opens the stream; answers once the response headers are in, which must be {@code 200}. */
    static SseClient open(String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri(path)).header("Accept", "text/event-stream").GET().build();
        HttpResponse<Stream<String>> response = http().sendAsync(request, HttpResponse.BodyHandlers.ofLines())
                .get(PATIENCE_SECONDS, TimeUnit.SECONDS);
        assertEquals(200, response.statusCode(), "status of " + path);
        assertEquals("text/event-stream", response.headers().firstValue("Content-Type").orElse("").split(";")[0]);
        // Never cached, nor held back by a buffering proxy.
        assertEquals("no-cache", response.headers().firstValue("Cache-Control").orElse(""));
        assertEquals("no", response.headers().firstValue("X-Accel-Buffering").orElse(""));
        return new SseClient(response);
    }

    private void read() {
        String name = null;
        String id = null;
        StringBuilder data = null;
        try {
            Iterator<String> lines = response.body().iterator();
            while (lines.hasNext()) {
                String line = lines.next();
                if (line.isEmpty()) {
                    if (data != null) {
                        events.add(new Event(name == null ? "message" : name, id, data.toString()));
                    }
                    name = null;
                    id = null;
                    data = null;
                } else if (line.startsWith(":")) {
                    comments.add(line.substring(1).strip());
                } else if (line.startsWith("event:")) {
                    name = line.substring(6).strip();
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).strip();
                } else if (line.startsWith("data:")) {
                    String part = line.substring(5);
                    part = part.startsWith(" ") ? part.substring(1) : part;
                    data = data == null ? new StringBuilder(part) : data.append('\n').append(part);
                }
            }
        } catch (RuntimeException closed) {
            // the test closed the stream
        } finally {
            events.add(END);
        }
    }

    Event next() throws InterruptedException {
        Event event = events.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
        assertNotNull(event, "no event within " + PATIENCE_SECONDS + " s");
        if (event == END) {
            fail("the stream ended");
        }
        return event;
    }

    /** The next comment line (keep-alives), within the patience. */
    String nextComment() throws InterruptedException {
        String comment = comments.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
        assertNotNull(comment, "no comment within " + PATIENCE_SECONDS + " s");
        return comment;
    }

    void assertEnded() throws InterruptedException {
        Event event = events.poll(PATIENCE_SECONDS, TimeUnit.SECONDS);
        if (event != END) {
            fail("expected the end of the stream, got " + event);
        }
    }

    @Override
    public void close() {
        response.body().close();
    }
}
