package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterators;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Server-Sent Events as the service writes them, and as the format allows them, read into job events. */
@Timeout(10) // a stream that keeps its reader waiting fails the test instead of hanging it
class JobEventsTest {

    private static final String PENDING = "{\"type\":\"email\",\"id\":\"j1\",\"state\":\"pending\",\"attempt\":0}";

    @Test
    void statesThenTheRemovalWhichEndsTheStream() {
        AtomicBoolean closed = new AtomicBoolean();
        List<JobEvent> events = of(Stream.of(
                "event: state", "id: 1", "data: " + PENDING, "",
                ":keep-alive", "",
                "event:state", "data:" + PENDING.replace("pending", "running"), "",
                "event: removed", "data: {\"type\":\"email\",\"id\":\"j1\"}", "",
                "event: state", "data: " + PENDING, "").onClose(() -> closed.set(true))).toList();
        assertTrue(closed.get(), "the connection closes when the stream ends, unclosed by its reader");
        assertEquals(List.of(JobState.PENDING, JobState.RUNNING),
                events.subList(0, 2).stream().map(event -> event.job().state()).toList());
        assertTrue(events.get(2).removed());
        assertEquals("email/j1", events.get(2).type() + "/" + events.get(2).id());
        assertEquals(3, events.size(), "nothing is read past the removal");
    }

    @Test
    void dataOverSeveralLinesIsJoinedAndUnknownKindsAreSkipped() {
        List<JobEvent> events = of(Stream.of(
                "event: progress", "data: {}", "",
                "event: state", "data: {\"type\":\"email\",", "data: \"id\":\"j1\",\"state\":\"finished\",",
                "data: \"result\":\"succeeded\"}", "")).toList();
        assertEquals(1, events.size());
        assertEquals(JobResult.SUCCEEDED, events.get(0).job().result());
    }

    @Test
    void anEventThatIsNotJsonFailsClearlyAndClosingClosesTheLines() {
        AtomicBoolean closed = new AtomicBoolean();
        try (Stream<JobEvent> events = of(Stream.of("event: state", "data: <html>", "")
                .onClose(() -> closed.set(true)))) {
            assertThrows(JobfoundryException.class, events::toList);
        }
        assertTrue(closed.get());
    }

    @Test
    void aSilentConnectionIsTakenForDeadAfterTheIdleTimeout() {
        Lines silent = new Lines();
        try (Stream<JobEvent> events = JobEvents.of(silent.stream(), Duration.ofMillis(200))) {
            JobfoundryException dead = assertThrows(JobfoundryException.class, () -> events.iterator().next());
            assertTrue(dead.getMessage().contains("taken for dead"), dead.getMessage());
        }
    }

    @Test
    void aReaderThatTakesItsTimeIsNotIdle() throws Exception {
        Lines lines = new Lines();
        try (Stream<JobEvent> events = JobEvents.of(lines.stream(), Duration.ofMillis(300))) {
            Iterator<JobEvent> next = events.iterator();
            lines.add("event: state", "data: " + PENDING, "");
            assertEquals(JobState.PENDING, next.next().job().state());
            Thread.sleep(800); // the reader is busy, not waiting: the watchdog leaves the stream alone
            lines.add("event: removed", "data: {\"type\":\"email\",\"id\":\"j1\"}", "");
            assertTrue(next.next().removed());
        }
    }

    @Test
    void aStreamClosedByItsReaderFromAnotherThreadEndsQuietly() throws Exception {
        Lines silent = new Lines();
        try (Stream<JobEvent> events = JobEvents.of(silent.stream(), Duration.ofMinutes(1))) {
            Iterator<JobEvent> next = events.iterator();
            CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS).execute(events::close);
            assertFalse(next.hasNext(), "closed: no more events, and no failure");
        }
    }

    private static Stream<JobEvent> of(Stream<String> lines) {
        return JobEvents.of(lines, Duration.ofMinutes(1));
    }

    /** Lines that arrive when the test adds them; closing wakes a waiting reader as the JDK's body stream does. */
    private static final class Lines {
        private static final String CLOSED = new String("closed");
        private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();

        void add(String... lines) {
            queue.addAll(List.of(lines));
        }

        Stream<String> stream() {
            Iterator<String> iterator = new Iterator<>() {
                private String next;

                @Override
                public boolean hasNext() {
                    if (next == null) {
                        try {
                            next = queue.take();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                    if (next == CLOSED) {
                        throw new UncheckedIOException(new IOException("closed"));
                    }
                    return true;
                }

                @Override
                public String next() {
                    hasNext();
                    String line = next;
                    next = null;
                    return line;
                }
            };
            return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator, 0), false)
                    .onClose(() -> queue.add(CLOSED));
        }
    }
}
