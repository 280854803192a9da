package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.PushTarget;
import io.jobfoundry.jobs.model.TypeSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Types, their settings and counts, and listing.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it.
 */
public interface TypeAndCountContract extends EngineFixture {


    @Test
    default void typesAreCreatedOnFirstUseAndConfigurable() {
        assertTrue(engine().type("fresh").isEmpty());
        add("fresh", "a");
        assertEquals(TypeSettings.DEFAULT, engine().type("fresh").orElseThrow().settings());
        TypeSettings custom = new TypeSettings(Duration.ofSeconds(5), 3, 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(2));
        engine().configureType("fresh", custom);
        assertEquals(custom, engine().type("fresh").orElseThrow().settings());
        assertTrue(engine().types().stream().anyMatch(t -> t.type().equals("fresh") && t.counts().pending() == 1));
        assertThrows(InvalidJobRequestException.class,
                () -> new TypeSettings(Duration.ofSeconds(5), 3, 0, 0, Duration.ZERO, Duration.ZERO));
    }

    /** A push target is kept with the type, survives a pause, is listed for the dispatchers, and goes when set to null. */
    @Test
    default void aPushTargetIsStoredWithItsTypeUntilTurnedOff() {
        PushTarget target = new PushTarget("https://hooks.example/run?x=1", Duration.ofMillis(2500), 3);
        TypeSettings pushed = new TypeSettings(Duration.ofSeconds(10), 5, 2, 1, Duration.ofSeconds(1),
                Duration.ofSeconds(60)).withPush(target);
        engine().configureType("hook", pushed);
        engine().configureType("pulled", TypeSettings.DEFAULT);
        engine().pause("hook", true);
        assertEquals(pushed, engine().type("hook").orElseThrow().settings());
        assertEquals(List.of("hook"), List.copyOf(engine().pushTypesAsync().join().keySet()));
        assertEquals(target, engine().pushTypesAsync().join().get("hook").push());

        engine().configureType("hook", current -> current.withPush(null));
        assertEquals(null, engine().type("hook").orElseThrow().settings().push());
        assertTrue(engine().type("hook").orElseThrow().paused(), "turning push off keeps the pause");
        assertEquals(pushed.retention(), engine().type("hook").orElseThrow().settings().retention(),
                "and the retention");
        assertTrue(engine().pushTypesAsync().join().isEmpty());
        var tooLong = assertThrows(InvalidJobRequestException.class, () -> pushed.withPush(
                new PushTarget("https://hooks.example/", Duration.ofSeconds(11), 1)));
        assertEquals("push.timeout", tooLong.field());
    }

    @Test
    default void listingPagesThroughJobsInIdOrderWithFilters() {
        for (int i = 0; i < 7; i++) {
            engine().put("email", "job-" + i, JobChanges.NONE.withGroup(i % 2 == 0 ? "even" : "odd"));
        }
        acceptOne("email");
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            JobPage page = engine().list("email", null, null, null, 3, cursor);
            page.jobs().forEach(j -> seen.add(j.id()));
            cursor = page.next();
        } while (cursor != null);
        assertEquals(List.of("job-0", "job-1", "job-2", "job-3", "job-4", "job-5", "job-6"), seen);
        assertEquals(4, engine().list("email", null, null, "even", 100, null).jobs().size());
        assertEquals(1, engine().list("email", JobState.RUNNING, null, null, 100, null).jobs().size());
        assertThrows(InvalidJobRequestException.class, () -> engine().list("email", null, null, null, 3, "!!"));
    }

    @Test
    default void generatedIdsListInCreationOrder() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(engine().create("email", JobChanges.NONE).job().id());
            clock().advance(Duration.ofMillis(1));
        }
        List<String> listed = engine().list("email", null, null, null, 100, null).jobs().stream().map(Job::id).toList();
        assertEquals(created, listed);
    }

    @Test
    default void aPausedTypeHandsOutNothingAndItsBlockedAcceptsGetJobsOnResume() throws Exception {
        add("email", "a");
        add("report", "r");
        assertTrue(engine().pause("email", true).paused());
        assertTrue(engine().type("email").orElseThrow().paused());
        assertEquals(List.of(), accept("email", 5), "a paused type hands out nothing");
        assertEquals(List.of("r"), engine().accept(new AcceptRequest(List.of("*"), 5, null, "w")).stream()
                .map(leased -> leased.job().id()).toList(), "a glob takes the types that are not paused");
        var waiting = waits().accept(new AcceptRequest(List.of("email"), 1, null, "w"), Duration.ofSeconds(EVENT_SECONDS))
                .toCompletableFuture();
        // The add offers its job to the blocked accept in its own transaction, done when add returns.
        add("email", "b");
        assertFalse(waiting.isDone(), "a blocked accept keeps waiting while the type is paused");
        assertEquals(2, engine().type("email").orElseThrow().counts().due(), "jobs are still added, and stay due");

        assertFalse(engine().pause("email", false).paused());
        assertEquals("a", waiting.get(EVENT_SECONDS, TimeUnit.SECONDS).get(0).job().id(),
                "the resume hands the waiting accept the oldest due job at once");
        assertEquals(1, engine().type("email").orElseThrow().counts().running(),
                "nothing was handed out while the type was paused");
        engine().configureType("email", TypeSettings.DEFAULT);
        assertFalse(engine().type("email").orElseThrow().paused(), "configuring a type keeps it as it is");
        engine().pause("email", true);
        engine().configureType("email", TypeSettings.DEFAULT);
        assertTrue(engine().type("email").orElseThrow().paused(), "configuring a paused type keeps it paused");
        assertTrue(engine().pause("never-used", true).paused(), "a type not yet used can be paused ahead");
    }
}
