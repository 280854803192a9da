package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The calls beyond producing and processing, against the real service: following, changing and resubmitting a
 * job, and the operator's listings, pause and resume, fairness groups and bulk actions.
 */
class OperationsIT {

    private final JobfoundryClient client = LiveService.client();
    private final Operations operations = client.operations();

    @Test
    void updateChangesTheMembersGivenAndResubmitRunsAFinishedJobAgain() {
        String type = LiveService.newType("operations");
        Job job = client.create(type, JobSpec.withData(Map.of("n", 1)).group("g"));
        Job changed = client.update(type, job.id(), JobSpec.withData(Map.of("n", 2)).priority(Priority.HIGH));
        assertEquals(Priority.HIGH, changed.priority());
        assertEquals(2, changed.data().get("n").asInt());
        assertEquals("g", changed.group(), "a member left out keeps its value");

        LeasedJob leased = client.accept(List.of(type), 1, Duration.ofSeconds(5), null).get(0);
        ProblemException running = assertThrows(ProblemException.class,
                () -> client.update(type, job.id(), JobSpec.withData(Map.of("n", 3))));
        assertEquals(409, running.status(), "the data of a running job is its processor's");
        client.finish(Finish.succeeded(leased, null));

        Job again = client.resubmit(type, job.id(), null);
        assertEquals(JobState.PENDING, again.state());
        assertNull(again.result());
        assertEquals(job.id(), client.accept(List.of(type), 1, Duration.ofSeconds(5), null).get(0).job().id());
        assertEquals(404, assertThrows(ProblemException.class,
                () -> client.update(type, "no-such-job", JobSpec.empty().priority(Priority.LOW))).status());
    }

    @Test
    void eventsFollowAJobFromItsStateAsItIsToItsRemoval() throws Exception {
        String type = LiveService.newType("operations");
        Job job = client.create(type, JobSpec.withData(Map.of("step", 0)));
        try (Stream<JobEvent> events = client.events(type, job.id())) {
            // A missing event fails the test instead of keeping it waiting: the stream is closed under it.
            CompletableFuture.delayedExecutor(60, TimeUnit.SECONDS).execute(events::close);
            Iterator<JobEvent> next = events.iterator();
            assertEquals(JobState.PENDING, next.next().job().state(), "first the job as it is");

            LeasedJob leased = client.accept(List.of(type), 1, Duration.ofSeconds(5), null).get(0);
            assertEquals(JobState.RUNNING, next.next().job().state());
            client.heartbeat(Heartbeat.of(leased, Map.of("step", 1)));
            assertEquals(1, next.next().job().data().get("step").asInt(), "progress shows as it is sent");
            client.finish(Finish.succeeded(leased, Map.of("step", 2)));
            JobEvent finished = next.next();
            assertEquals(JobResult.SUCCEEDED, finished.job().result());

            assertTrue(client.remove(type, job.id()));
            JobEvent removed = next.next();
            assertTrue(removed.removed());
            assertEquals(type + "/" + job.id(), removed.type() + "/" + removed.id());
            assertFalse(next.hasNext(), "the removal ends the stream");
        }
        assertEquals(404, assertThrows(ProblemException.class, () -> client.events(type, job.id())).status());
    }

    @Test
    void listingsPageInIdOrderAndFilter() {
        String type = LiveService.newType("operations");
        for (String id : List.of("e", "b", "d", "a", "c")) {
            client.put(type, id, JobSpec.empty().maxAttempts(1)); // a failed run ends the job
        }
        LeasedJob leased = client.accept(List.of(type), 1, Duration.ofSeconds(5), null).get(0);
        client.finish(Finish.failed(leased, "broken"));

        JobPage first = operations.jobs(JobFilter.type(type), 2, null);
        assertEquals(2, first.jobs().size());
        assertNotNull(first.next());
        JobPage rest = operations.jobs(JobFilter.type(type), 1000, first.next());
        assertNull(rest.next());
        assertEquals(List.of("a", "b", "c", "d", "e"), Stream.concat(first.jobs().stream(), rest.jobs().stream())
                .map(Job::id).toList());

        String glob = type.substring(0, type.length() - 1) + "?";
        assertEquals(List.of("a", "b", "c", "d", "e"), operations.allJobs(JobFilter.type(glob))
                .filter(job -> job.type().equals(type)).map(Job::id).toList());
        assertEquals(List.of(leased.job().id()), ids(JobFilter.type(type).withState(JobState.FINISHED)));
        assertEquals(List.of(leased.job().id()), ids(JobFilter.type(type).withResult(JobResult.FAILED)));
        assertEquals(List.of(), ids(JobFilter.type(type).withResult(JobResult.SUCCEEDED)));
        assertEquals(1, operations.jobs(JobFilter.everyType(), 1, null).jobs().size(), "every type's jobs");
    }

    /** The latest failures first, whatever their ids: where an operator looks after an incident. */
    @Test
    void recentlyFinishedJobsComeLatestFirst() {
        String type = LiveService.newType("operations");
        List<String> failedInOrder = new ArrayList<>();
        // One at a time, so each finishes after the one before (ids in the same order: a tie within a
        // millisecond lists the greater id first, which is then the later one too).
        for (String id : List.of("a", "b", "c")) {
            client.put(type, id, JobSpec.empty().maxAttempts(1).group(id.equals("b") ? "tenant-b" : ""));
            LeasedJob leased = client.accept(List.of(type), 1, Duration.ofSeconds(5), null).get(0);
            client.finish(Finish.failed(leased, "broken " + id));
            failedInOrder.add(0, leased.job().id());
        }
        client.put(type, "pending", JobSpec.empty());

        JobPage first = operations.recentlyFinished(type, JobResult.FAILED, null, 2, null);
        assertNotNull(first.next());
        JobPage rest = operations.recentlyFinished(type, JobResult.FAILED, null, 2, first.next());
        assertNull(rest.next());
        assertEquals(failedInOrder, Stream.concat(first.jobs().stream(), rest.jobs().stream()).map(Job::id).toList());
        assertEquals(List.of(), operations.recentlyFinished(type, JobResult.SUCCEEDED, null, 10, null).jobs());
        assertEquals(3, operations.recentlyFinished(type, null, null, 10, null).jobs().size(), "a pending job is not finished");
        assertEquals(List.of("b"), operations.recentlyFinished(type, null, "tenant-b", 10, null).jobs().stream()
                .map(Job::id).toList(), "one group's");
        assertEquals(400, assertThrows(ProblemException.class,
                () -> operations.recentlyFinished(type, null, null, 10, "bm90LWEtY3Vyc29y")).status());
    }

    @Test
    void aPausedTypeHandsOutNothingUntilResumed() {
        String type = LiveService.newType("operations");
        assertTrue(operations.pause(type).paused());
        client.create(type, JobSpec.empty());
        assertTrue(client.accept(List.of(type), 1, Duration.ZERO, null).isEmpty());
        TypeInfo listed = operations.types().stream().filter(info -> info.type().equals(type)).findFirst()
                .orElseThrow();
        assertTrue(listed.paused());
        assertEquals(1, listed.count("pending"));

        assertFalse(operations.resume(type).paused());
        assertEquals(1, client.accept(List.of(type), 1, Duration.ofSeconds(5), null).size());
    }

    @Test
    void aTypeIsDeletedOnceNoJobUsesIt() {
        String type = LiveService.newType("operations");
        operations.pause(type);
        Job job = client.create(type, JobSpec.empty());
        ProblemException inUse = assertThrows(ProblemException.class, () -> operations.deleteType(type));
        assertEquals(409, inUse.status());
        assertTrue(inUse.type().endsWith("/type-in-use"), inUse.type());

        assertTrue(client.remove(type, job.id()));
        assertTrue(operations.deleteType(type));
        assertTrue(operations.types().stream().noneMatch(info -> info.type().equals(type)));
        assertFalse(operations.deleteType(type), "a type the service no longer knows");
    }

    @Test
    void groupsAreCountedAndPaged() {
        String type = LiveService.newType("operations");
        String spaced = "tenant 1/é&x=y"; // every character a query must encode
        for (String group : List.of(spaced, spaced, "tenant-2")) {
            client.create(type, JobSpec.empty().group(group));
        }
        GroupPage page = operations.groups(type, 100, null);
        assertEquals(List.of(new FairnessGroup(spaced, 2, 2, 0), new FairnessGroup("tenant-2", 1, 1, 0)),
                page.groups());
        assertNull(page.next());
        GroupPage first = operations.groups(type, 1, null);
        assertEquals(spaced, first.groups().get(0).group());
        assertEquals("tenant-2", operations.groups(type, 1, first.next()).groups().get(0).group());
        assertEquals(2, ids(JobFilter.type(type).withGroup(spaced)).size());
    }

    @Test
    void bulkCancelsRetriesAndRemovesWhatTheFilterMatches() {
        String type = LiveService.newType("operations");
        for (String group : List.of("a", "a", "b")) {
            client.create(type, JobSpec.empty().group(group));
        }
        assertEquals(new BulkResult(2, 2), operations.bulk(BulkAction.CANCEL, JobFilter.type(type).withGroup("a"), 100));
        assertEquals(2, ids(JobFilter.type(type).withResult(JobResult.CANCELLED)).size());
        assertEquals(new BulkResult(2, 2),
                operations.bulk(BulkAction.RETRY, JobFilter.type(type).withResult(JobResult.CANCELLED), 100));
        assertEquals(3, ids(JobFilter.type(type).withState(JobState.PENDING)).size());

        assertEquals(new BulkResult(3, 3), operations.bulk(BulkAction.REMOVE, JobFilter.type(type), 10));
        assertEquals(List.of(), ids(JobFilter.type(type)));
        assertThrows(IllegalArgumentException.class, () -> operations.bulk(BulkAction.REMOVE, JobFilter.everyType(), 10),
                "a bulk action names its types");
    }

    @Test
    void meNamesTheCallerWithItsEffectiveRolesAndTypes() {
        Identity me = operations.me();
        // clients/test.sh runs the service with one admin token on every type, named "clients"; without a token the
        // service serves loopback as "anonymous", with every role.
        String token = System.getenv("JOBFOUNDRY_TOKEN");
        boolean open = token == null || token.isBlank();
        assertEquals(open ? "anonymous" : "clients", me.name());
        assertEquals(List.of("viewer", "producer", "worker", "admin"), me.roles(), "admin includes the other roles");
        assertNull(me.types(), "a token on every type");
        if (open) {
            return;
        }
        ProblemException unknown = assertThrows(ProblemException.class,
                () -> JobfoundryClient.builder(LiveService.url()).token("not-a-configured-token").build().operations().me());
        assertEquals(401, unknown.status());
    }

    private List<String> ids(JobFilter filter) {
        return operations.allJobs(filter).map(Job::id).toList();
    }
}
