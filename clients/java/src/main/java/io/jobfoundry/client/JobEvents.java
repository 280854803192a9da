package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A job's Server-Sent Events as {@link JobEvent}s: {@code event: state} with the job (one {@code data} line of
 * JSON), {@code event: removed} with its type and id; comments (the service's keep-alive) and unknown events are
 * skipped, as the SSE format asks.
 */
final class JobEvents implements Iterator<JobEvent> {

    private final Iterator<String> lines;
    private JobEvent next;
    private boolean removed;

    private JobEvents(Iterator<String> lines) {
        this.lines = lines;
    }

    /** The events of {@code lines}; closing the answer closes them. */
    static Stream<JobEvent> of(Stream<String> lines) {
        JobEvents events = new JobEvents(lines.iterator());
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(events, Spliterator.ORDERED | Spliterator.NONNULL),
                false).onClose(lines::close);
    }

    @Override
    public boolean hasNext() {
        if (next == null && !removed) {
            next = read();
        }
        return next != null;
    }

    @Override
    public JobEvent next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        JobEvent event = next;
        next = null;
        removed = event.removed();
        return event;
    }

    /** The next event of a known kind, or {@code null} at the end of the stream. */
    private JobEvent read() {
        String name = "message";
        StringBuilder data = null;
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.isEmpty()) {
                JobEvent event = data == null ? null : event(name, data.toString());
                if (event != null) {
                    return event;
                }
                name = "message";
                data = null;
            } else if (line.startsWith("event:")) {
                name = value(line, 6);
            } else if (line.startsWith("data:")) {
                data = data == null ? new StringBuilder() : data.append('\n');
                data.append(value(line, 5));
            }
        }
        return null;
    }

    private static String value(String line, int after) {
        return line.startsWith(" ", after) ? line.substring(after + 1) : line.substring(after);
    }

    private static JobEvent event(String name, String data) {
        JsonNode body;
        try {
            body = Json.parse(data.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new JobfoundryException("the service sent an event that is not JSON", e);
        }
        return switch (name) {
            case "state" -> {
                Job job = Json.job(body);
                yield new JobEvent(job.type(), job.id(), job);
            }
            case "removed" -> new JobEvent(Json.text(body, "type"), Json.text(body, "id"), null);
            default -> null;
        };
    }
}
