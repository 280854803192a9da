package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A job's Server-Sent Events as {@link JobEvent}s: {@code event: state} with the job (its JSON in {@code data}),
 * {@code event: removed} with its type and id; comments (the service's keep-alive) and unknown kinds are skipped,
 * as the SSE format asks.
 *
 * <p>The JDK's HTTP client has no read timeout for a body, so a connection that died without a word would keep
 * its reader waiting for good: a watchdog closes the stream once its reader has waited {@code idleTimeout} for a
 * line (the service sends a keep-alive comment every 15 s by default), and the reader then fails. A stream closed
 * by its own reader, from any thread, ends quietly. The connection is closed as soon as the stream ends (the
 * removal, the end of the answer, a failure), and, for a stream dropped unread and unclosed, once it is garbage:
 * the watchdog holds it only weakly.
 */
final class JobEvents implements Iterator<JobEvent> {

    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(daemon());
    private static final Cleaner CLEANER = Cleaner.create(daemon());

    private final Stream<String> lines;
    private final Iterator<String> source;
    private final Duration idleTimeout;
    private final ScheduledFuture<?> watch;
    private final Cleaner.Cleanable cleanable;
    /** When the reader began to wait for the line it waits for now; 0 while it is not waiting. */
    private volatile long waitingSince;
    private volatile boolean closed;
    private volatile boolean timedOut;
    private JobEvent next;
    private boolean ended;

    private JobEvents(Stream<String> lines, Duration idleTimeout) {
        this.lines = lines;
        this.source = lines.iterator();
        this.idleTimeout = idleTimeout;
        long period = Math.max(1, idleTimeout.toMillis() / 4);
        this.watch = WATCHDOG.scheduleAtFixedRate(new Watch(this), period, period, TimeUnit.MILLISECONDS);
        // The action holds the lines, not this: it runs once this is garbage, or when the stream closes.
        this.cleanable = CLEANER.register(this, lines::close);
    }

    /** The watchdog's task, which holds its stream weakly and ends itself once the stream is garbage. */
    private static final class Watch implements Runnable {
        private final WeakReference<JobEvents> events;

        Watch(JobEvents events) {
            this.events = new WeakReference<>(events);
        }

        @Override
        public void run() {
            JobEvents stream = events.get();
            if (stream == null) {
                throw new CancellationException("the stream is gone"); // ends a periodic task
            }
            stream.checkIdle();
        }
    }

    /** The events of {@code lines}; closing the stream closes them. */
    static Stream<JobEvent> of(Stream<String> lines, Duration idleTimeout) {
        JobEvents events = new JobEvents(lines, idleTimeout);
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(events, Spliterator.ORDERED | Spliterator.NONNULL),
                false).onClose(events::close);
    }

    @Override
    public boolean hasNext() {
        if (next == null && !ended) {
            try {
                next = read();
            } catch (RuntimeException | Error e) {
                end();
                throw e;
            }
            if (next == null || next.removed()) {
                end(); // the removal is the last event: nothing is read past it
            }
        }
        return next != null;
    }

    /** No more events: the watchdog stops, and the connection closes. */
    private void end() {
        ended = true;
        stopWatching();
        cleanable.clean();
    }

    @Override
    public JobEvent next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        JobEvent event = next;
        next = null;
        return event;
    }

    private void close() {
        closed = true;
        stopWatching();
        cleanable.clean();
    }

    private void stopWatching() {
        watch.cancel(false);
    }

    private void checkIdle() {
        long since = waitingSince;
        if (since != 0 && System.nanoTime() - since > idleTimeout.toNanos()) {
            timedOut = true;
            stopWatching();
            lines.close(); // wakes the reader
        }
    }

    /** The next event of a known kind, or {@code null} at the end of the stream. */
    private JobEvent read() {
        String name = "message";
        StringBuilder data = null;
        while (true) {
            String line = nextLine();
            if (line == null) {
                return null;
            }
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
    }

    /** The next line, or {@code null} at the end of the stream or once its reader closed it. */
    private String nextLine() {
        waitingSince = System.nanoTime();
        try {
            if (source.hasNext()) {
                return source.next();
            }
        } catch (UncheckedIOException | IllegalStateException e) {
            if (!closed && !timedOut) {
                throw new JobfoundryException("the job's event stream broke: " + e.getMessage(), e);
            }
        } finally {
            waitingSince = 0;
        }
        if (timedOut && !closed) {
            throw new JobfoundryException("no event and no keep-alive for " + idleTimeout.toSeconds()
                    + " s: the connection is taken for dead; open the stream again");
        }
        return null;
    }

    private static String value(String line, int after) {
        return line.startsWith(" ", after) ? line.substring(after + 1) : line.substring(after);
    }

    private static JobEvent event(String name, String data) {
        if (!name.equals("state") && !name.equals("removed")) {
            return null;
        }
        JsonNode body;
        try {
            body = Json.parse(data.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new JobfoundryException("the service sent an event that is not JSON", e);
        }
        if (name.equals("removed")) {
            return new JobEvent(Json.text(body, "type"), Json.text(body, "id"), null);
        }
        Job job = Json.job(body);
        return new JobEvent(job.type(), job.id(), job);
    }

    private static ThreadFactory daemon() {
        return runnable -> {
            Thread thread = new Thread(runnable, "jobfoundry-events");
            thread.setDaemon(true);
            return thread;
        };
    }
}
