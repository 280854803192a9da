package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Server-Sent Events as the service writes them, and as the format allows them, read into job events. */
class JobEventsTest {

    private static final String PENDING = "{\"type\":\"email\",\"id\":\"j1\",\"state\":\"pending\",\"attempt\":0}";

    @Test
    void statesThenTheRemovalWhichEndsTheStream() {
        List<JobEvent> events = JobEvents.of(Stream.of(
                "event: state", "id: 1", "data: " + PENDING, "",
                ":keep-alive", "",
                "event:state", "data:" + PENDING.replace("pending", "running"), "",
                "event: removed", "data: {\"type\":\"email\",\"id\":\"j1\"}", "",
                "event: state", "data: " + PENDING, "")).toList();
        assertEquals(List.of(JobState.PENDING, JobState.RUNNING),
                events.subList(0, 2).stream().map(event -> event.job().state()).toList());
        assertTrue(events.get(2).removed());
        assertEquals("email/j1", events.get(2).type() + "/" + events.get(2).id());
        assertEquals(3, events.size(), "nothing is read past the removal");
    }

    @Test
    void dataOverSeveralLinesIsJoinedAndUnknownKindsAreSkipped() {
        List<JobEvent> events = JobEvents.of(Stream.of(
                "event: progress", "data: {}", "",
                "event: state", "data: {\"type\":\"email\",", "data: \"id\":\"j1\",\"state\":\"finished\",",
                "data: \"result\":\"succeeded\"}", "")).toList();
        assertEquals(1, events.size());
        assertEquals(JobResult.SUCCEEDED, events.get(0).job().result());
    }

    @Test
    void anEventThatIsNotJsonFailsClearlyAndClosingClosesTheLines() {
        AtomicBoolean closed = new AtomicBoolean();
        try (Stream<JobEvent> events = JobEvents.of(Stream.of("event: state", "data: <html>", "")
                .onClose(() -> closed.set(true)))) {
            assertThrows(JobfoundryException.class, events::toList);
        }
        assertTrue(closed.get());
    }
}
