package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.jobfoundry.jobs.accept.Accepting;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Accepting, heartbeats and finishes under a lease, and which job an accept takes: oldest first, groups in turn, the priority scheme, globs.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it.
 */
public interface AcceptAndLeaseContract extends EngineFixture {


    @Test
    default void acceptLeasesAJobToOneProcessorOnly() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        assertEquals(JobState.RUNNING, leased.job().state());
        assertEquals(START, leased.job().startedAt());
        assertEquals("worker-1", leased.job().worker());
        assertTrue(accept("email", 5).isEmpty());
        assertEquals(1, engine().type("email").orElseThrow().counts().running());
    }

    /**
     * A job taken for a waiter that left goes back as it was, its run never started: a cancel or a resubmit that
     * came meanwhile applies as it does to a pending job (cancelled at once; pending, once).
     */
    @Test
    default void aJobHandedBackUnusedTakesTheCancelOrResubmitThatCameMeanwhile() {
        add("email", "cancelled");
        LeasedJob taken = acceptOne("email");
        engine().cancel("email", "cancelled");
        engine().accepting().release(taken);
        Job cancelled = engine().get("email", "cancelled").orElseThrow();
        assertEquals(JobState.FINISHED, cancelled.state());
        assertEquals(JobResult.CANCELLED, cancelled.result());
        assertTrue(accept("email", 5).isEmpty(), "a cancelled job is handed to no one");

        add("email", "again");
        taken = acceptOne("email");
        engine().resubmit("email", "again", null, null);
        engine().accepting().release(taken);
        Job pending = engine().get("email", "again").orElseThrow();
        assertEquals(JobState.PENDING, pending.state());
        assertEquals(false, pending.resubmit(), "the run it asked for is this one");
        LeasedJob run = acceptOne("email");
        assertEquals(JobState.FINISHED, engine().finish("email", "again", run.lease(), true, Change.keep(), null).state(),
                "one run");
        assertEquals(0, engine().type("email").orElseThrow().counts().running());
    }

    @Test
    default void acceptHandsOutOldestScheduledFirstUpToMax() {
        engine().put("email", "late", JobChanges.NONE.withScheduledAt(START.minusSeconds(10)));
        engine().put("email", "early", JobChanges.NONE.withScheduledAt(START.minusSeconds(30)));
        engine().put("email", "middle", JobChanges.NONE.withScheduledAt(START.minusSeconds(20)));
        List<String> ids = accept("email", 10).stream().map(l -> l.job().id()).toList();
        assertEquals(List.of("early", "middle", "late"), ids);
    }

    @Test
    default void acceptByGlobAndRespectingMaxScheduledAt() {
        engine().put("CheckLiveness", "a", JobChanges.NONE.withScheduledAt(START.minusSeconds(60)));
        engine().put("CheckDisk", "b", JobChanges.NONE);
        engine().put("Other", "c", JobChanges.NONE);
        List<LeasedJob> early = engine().accept(new AcceptRequest(List.of("Check*"), 10, START.minusSeconds(30), null));
        assertEquals(List.of("a"), early.stream().map(l -> l.job().id()).toList());
        List<LeasedJob> rest = engine().accept(new AcceptRequest(List.of("Check?isk", "Ch*"), 10, null, null));
        assertEquals(List.of("b"), rest.stream().map(l -> l.job().id()).toList());
    }

    /**
     * The ready index holds only jobs that are due, by the clock of whoever placed them: an accept
     * must not weigh them against its own. A replica whose clock lags (or an accept that read the
     * clock just before a concurrent add read it) used to pass them over, and, having found none,
     * wait out its whole wait on a watch that had already seen the job.
     */
    @Test
    default void aReadyJobIsTakenByAnAcceptWhoseClockIsBehind() {
        add("email", "a");
        JobEngine lagging = new JobEngine(new TransactionRunner(store(), RetryPolicy.DEFAULT),
                new MutableClock(START.minusSeconds(1)), EngineOptions.DEFAULT);

        List<LeasedJob> taken = lagging.accept(new AcceptRequest(List.of("email"), 1, null, null));

        assertEquals(List.of("a"), taken.stream().map(l -> l.job().id()).toList());
    }

    @Test
    default void heartbeatRenewsAndMayReplaceData() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        Job beat = engine().heartbeat("email", "a", leased.lease(), Change.to("{\"progress\":50}"));
        assertEquals("{\"progress\":50}", beat.data());
        assertEquals("{\"progress\":50}", engine().get("email", "a").orElseThrow().data());
        HaltException wrong = assertThrows(HaltException.class,
                () -> engine().heartbeat("email", "a", "not-the-lease", Change.keep()));
        assertEquals(HaltReason.LEASE_LOST, wrong.reason());
    }

    @Test
    default void finishingSucceededEndsTheJobAndTheLease() {
        add("email", "a");
        LeasedJob leased = acceptOne("email");
        clock().advance(Duration.ofSeconds(3));
        Job done = engine().finish("email", "a", leased.lease(), true, Change.to("{\"sent\":true}"), null);
        assertEquals(JobState.FINISHED, done.state());
        assertEquals(JobResult.SUCCEEDED, done.result());
        assertEquals(START.plusSeconds(3), done.finishedAt());
        assertEquals("{\"sent\":true}", done.data());
        assertNull(done.worker());
        assertEquals(1, engine().type("email").orElseThrow().counts().succeeded());
        assertEquals(0, engine().type("email").orElseThrow().counts().running());
        assertThrows(HaltException.class, () -> engine().heartbeat("email", "a", leased.lease(), Change.keep()));
    }


    @Test
    default void groupsTakeTurnsSoABigGroupDoesNotDelayASmallOne() {
        for (int i = 0; i < 50; i++) {
            engine().put("report", "big-" + i, JobChanges.NONE.withGroup("big"));
        }
        for (int i = 0; i < 3; i++) {
            engine().put("report", "small-" + i, JobChanges.NONE.withGroup("small"));
        }
        List<String> groups = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            groups.add(acceptOne("report").job().group());
        }
        assertEquals(3, groups.stream().filter("small"::equals).count(), "small got every other turn: " + groups);
    }

    @Test
    default void highAndLowAlternateByTheSchemeAndFallBackWhenOneIsEmpty() {
        for (int i = 0; i < 4; i++) {
            engine().put("mail", "h" + i, JobChanges.NONE.withPriority(Priority.HIGH)
                    .withScheduledAt(START.minusSeconds(100 - i)));
            engine().put("mail", "l" + i, JobChanges.NONE.withPriority(Priority.LOW)
                    .withScheduledAt(START.minusSeconds(100 - i)));
        }
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            order.add(acceptOne("mail").job().id());
        }
        assertEquals(List.of("h0", "h1", "l0", "h2", "h3", "l1", "l2", "l3"), order);
    }

    /**
     * Accept reads a group's ready keys once and answers each class from that read unless the
     * window filled before the class: with a window of 2 the low classes need reads of their own,
     * with 16 the one read holds them all. The order of classes must not depend on which.
     */
    @Test
    default void theOrderOfClassesIsTheSameWhateverTheAcceptWindow() {
        for (int window : new int[] {1, 2, 16}) {
            JobEngine windowed = new JobEngine(new TransactionRunner(store(), RetryPolicy.DEFAULT), clock(),
                    new EngineOptions(window, EngineOptions.DEFAULT.maxDataBytes()));
            String type = "window-" + window;
            windowed.configureType(type,
                    new TypeSettings(Duration.ofSeconds(30), 5, 2, 1, Duration.ZERO, Duration.ZERO));
            windowed.put(type, "retry", JobChanges.NONE.withPriority(Priority.LOW));
            LeasedJob first = windowed.accept(new AcceptRequest(List.of(type), 1, null, "w")).get(0);
            windowed.finish(type, first.job().id(), first.lease(), false, Change.keep(), "again");
            for (int i = 0; i < 3; i++) {
                windowed.put(type, "h" + i, JobChanges.NONE.withPriority(Priority.HIGH));
            }
            for (int i = 0; i < 2; i++) {
                windowed.put(type, "l" + i, JobChanges.NONE.withPriority(Priority.LOW));
            }
            List<String> classes = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String id = windowed.accept(new AcceptRequest(List.of(type), 1, null, "w")).get(0).job().id();
                classes.add(id.equals("retry") ? "retry" : id.substring(0, 1));
            }
            // Two high turns, then low (its due retry before its fresh runs), then high; high runs
            // out and low takes the rest.
            assertEquals(List.of("h", "h", "retry", "h", "l", "l"), classes, "window " + window);
        }
    }

    /**
     * One accept of many reads each group's ready keys once and takes from what it read: it must
     * hand out jobs in the order as many accepts of one would, groups in turn, the high/low scheme,
     * due retries first. The big group holds more keys than that read takes, so the classes after
     * the high ones are read on their own. With a window above 1 the job within its class is
     * chosen at random, so the order is compared by group and class.
     */
    @Test
    default void oneAcceptOfManyServesAsAcceptsOfOneWould() {
        for (int window : new int[] {1, 2, 16}) {
            JobEngine windowed = new JobEngine(new TransactionRunner(store(), RetryPolicy.DEFAULT), clock(),
                    new EngineOptions(window, EngineOptions.DEFAULT.maxDataBytes()));
            List<List<String>> orders = new ArrayList<>();
            for (String way : List.of("ones", "many")) {
                String type = way + "-" + window;
                windowed.configureType(type,
                        new TypeSettings(Duration.ofSeconds(30), 5, 2, 1, Duration.ZERO, Duration.ZERO));
                for (String group : List.of("a", "b")) {
                    windowed.put(type, group + "-retry", JobChanges.NONE.withGroup(group).withPriority(Priority.LOW));
                }
                for (LeasedJob leased : windowed.accept(new AcceptRequest(List.of(type), 2, null, "w"))) {
                    windowed.finish(type, leased.job().id(), leased.lease(), false, Change.keep(), "again");
                }
                for (int i = 0; i < 90; i++) {
                    String group = i % 3 == 0 ? "b" : "a";
                    Priority priority = i % 4 == 0 ? Priority.LOW : Priority.HIGH;
                    windowed.put(type, group + "-" + priority.name().toLowerCase() + "-" + i,
                            JobChanges.NONE.withGroup(group).withPriority(priority)
                                    .withScheduledAt(START.minusSeconds(100 - i)));
                }
                List<LeasedJob> taken = new ArrayList<>();
                if (way.equals("ones")) {
                    for (int i = 0; i < 32; i++) {
                        taken.addAll(windowed.accept(new AcceptRequest(List.of(type), 1, null, "w")));
                    }
                } else {
                    taken.addAll(windowed.accept(new AcceptRequest(List.of(type), 32, null, "w")));
                }
                assertEquals(32, new HashSet<>(taken.stream().map(l -> l.job().id()).toList()).size(),
                        way + ", window " + window + ": every job once");
                orders.add(taken.stream()
                        .map(l -> window == 1 ? l.job().id() : l.job().id().replaceAll("-\\d+$", ""))
                        .toList());
            }
            assertEquals(orders.get(0), orders.get(1), "window " + window);
        }
    }

    /** A busy type matched by the same glob must not starve the others: accepts take them in turn. A list keeps its order. */
    @Test
    default void theTypesOneGlobMatchesTakeTurnsWhileAListKeepsItsOrder() {
        for (String type : List.of("notify.a", "notify.b", "notify.c")) {
            for (int i = 0; i < 3; i++) {
                add(type, "j" + i);
            }
        }
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            taken.add(engine().accept(new AcceptRequest(List.of("notify.*"), 1, null, "w")).get(0).job().type());
        }
        for (String type : List.of("notify.a", "notify.b", "notify.c")) {
            assertEquals(2, taken.stream().filter(type::equals).count(), type + " in " + taken);
        }
        assertEquals(3, new java.util.HashSet<>(taken.subList(0, 3)).size(), "each type within three turns: " + taken);

        // One job of each type is left. A list keeps its order: notify.c before notify.a, every time.
        AcceptRequest listed = new AcceptRequest(List.of("notify.c", "notify.a"), 1, null, "w");
        assertEquals("notify.c", engine().accept(listed).get(0).job().type());
        assertEquals("notify.a", engine().accept(listed).get(0).job().type());
        assertTrue(engine().accept(listed).isEmpty());
    }

    /** A glob's turns are its own: other accepts in between (here one that finds nothing) do not move them. */
    @Test
    default void aGlobsTurnsAreNotMovedByOtherAccepts() {
        for (String type : List.of("mail.a", "mail.b")) {
            for (int i = 0; i < 4; i++) {
                add(type, "j" + i);
            }
        }
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            taken.add(engine().accept(new AcceptRequest(List.of("mail.*"), 1, null, "w")).get(0).job().type());
            assertTrue(engine().accept(new AcceptRequest(List.of("unrelated"), 1, null, "w")).isEmpty());
        }
        assertEquals(3, taken.stream().filter("mail.a"::equals).count(), "mail.a in " + taken);
        assertEquals(3, taken.stream().filter("mail.b"::equals).count(), "mail.b in " + taken);
    }
}
