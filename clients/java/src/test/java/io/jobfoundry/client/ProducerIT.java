package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The producer calls, and the raw processor calls the worker is built on, against the real service. */
class ProducerIT {

    private final JobfoundryClient client = LiveService.client();

    @Test
    void createPutGetAndRemove() {
        String type = LiveService.newType("producer");
        Job created = client.create(type, JobSpec.withData(Map.of("to", "a@example.org")).group("tenant-7")
                .priority(Priority.HIGH).maxAttempts(3));
        assertEquals(JobState.PENDING, created.state());
        assertEquals("a@example.org", created.data().get("to").asText());
        assertEquals("tenant-7", created.group());
        assertEquals(Priority.HIGH, created.priority());
        assertEquals(3, created.maxAttempts());
        assertEquals(created.id(), client.get(type, created.id()).orElseThrow().id());

        Saved first = client.put(type, "welcome 42-é", JobSpec.withData(Map.of("n", 1)));
        assertTrue(first.created());
        Saved again = client.put(type, first.job().id(), JobSpec.withData(Map.of("n", 2)));
        assertFalse(again.created());
        assertEquals(2, client.get(type, first.job().id()).orElseThrow().data().get("n").asInt());

        assertTrue(client.remove(type, first.job().id()));
        assertTrue(client.get(type, first.job().id()).isEmpty());
        assertFalse(client.remove(type, first.job().id()));
    }

    @Test
    void aScheduledJobKeepsItsTime() {
        String type = LiveService.newType("producer");
        Instant later = Instant.parse("2030-01-02T03:04:05Z");
        Job job = client.create(type, JobSpec.empty().scheduledAt(later));
        assertEquals(later, job.scheduledAt());
        assertTrue(client.accept(List.of(type), 1, Duration.ZERO, null).isEmpty(), "not due yet");
    }

    @Test
    void waitForAnswersWhenTheStateIsReachedOrTheTimeoutEnds() throws Exception {
        String type = LiveService.newType("producer");
        Job job = client.create(type, JobSpec.empty());
        Job stillPending = client.waitFor(type, job.id(), JobState.RUNNING, Duration.ofMillis(300));
        assertEquals(JobState.PENDING, stillPending.state());

        CompletableFuture<Job> finished = CompletableFuture.supplyAsync(
                () -> client.waitFor(type, job.id(), JobState.FINISHED, Duration.ofSeconds(60)));
        LeasedJob leased = client.accept(List.of(type), 1, Duration.ofSeconds(5), "by-hand").get(0);
        assertEquals(JobState.RUNNING, client.waitFor(type, job.id(), JobState.RUNNING, Duration.ofSeconds(5)).state());
        assertEquals("by-hand", client.get(type, job.id()).orElseThrow().worker());
        client.finish(Finish.succeeded(leased, Map.of("sent", true)));
        Job done = finished.get(30, TimeUnit.SECONDS); // long before its 60 s
        assertEquals(JobState.FINISHED, done.state());
        assertEquals(JobResult.SUCCEEDED, done.result());
        assertTrue(done.data().get("sent").asBoolean());
    }

    @Test
    void waitForAJobThatDoesNotExistIs404() {
        ProblemException e = assertThrows(ProblemException.class,
                () -> client.waitFor(LiveService.newType("producer"), "nope", JobState.FINISHED, Duration.ofSeconds(1)));
        assertEquals(404, e.status());
    }

    @Test
    void cancelAndHaltsOfTheRawProcessorCalls() {
        String type = LiveService.newType("producer");
        Job pending = client.create(type, JobSpec.empty());
        Job cancelled = client.cancel(type, pending.id());
        assertEquals(JobState.FINISHED, cancelled.state());
        assertEquals(JobResult.CANCELLED, cancelled.result());

        Job running = client.create(type, JobSpec.withData(Map.of("step", 0)));
        LeasedJob leased = client.accept(List.of(type), 1, Duration.ofSeconds(5), null).get(0);
        assertEquals(running.id(), leased.id());
        client.heartbeat(Heartbeat.of(leased, Map.of("step", 1)));
        assertEquals(1, client.get(type, running.id()).orElseThrow().data().get("step").asInt(), "progress is visible");
        client.cancel(type, running.id());
        HaltException halt = assertThrows(HaltException.class, () -> client.heartbeat(Heartbeat.of(leased, null)));
        assertEquals("cancelled", halt.reason());
        assertEquals(JobResult.CANCELLED, client.get(type, running.id()).orElseThrow().result());
    }

    @Test
    void refusalsAreProblemsNamingTheField() {
        ProblemException e = assertThrows(ProblemException.class, () -> client.create("no spaces", JobSpec.empty()));
        assertEquals(400, e.status());
        assertEquals("type", e.member("field"));
        assertNotNull(e.detail());
        ProblemException tooMany = assertThrows(ProblemException.class,
                () -> client.create(LiveService.newType("producer"), JobSpec.empty().maxAttempts(0)));
        assertEquals("maxAttempts", tooMany.member("field"));
    }

    @Test
    void aRepeatPreviewGivesTheCanonicalExpressionAndTheNextRunsOrNamesTheBadPart() {
        Instant from = Instant.parse("2026-03-01T10:15:00Z");
        RepeatPreview hourly = client.previewRepeat("scheduled,+1 hour", from, 3);
        assertEquals("SCHEDULED, +1 HOUR", hourly.normalized());
        assertEquals(List.of(Instant.parse("2026-03-01T11:15:00Z"), Instant.parse("2026-03-01T12:15:00Z"),
                Instant.parse("2026-03-01T13:15:00Z")), hourly.next());
        // 2026-03-01 is a Sunday: the first weekday at nine is Monday's.
        assertEquals(Instant.parse("2026-03-02T09:00:00Z"), client.previewRepeat("CRON 0 9 * * MON-FRI", from, 1).next().get(0));
        Instant now = Instant.now();
        Instant next = client.previewRepeat("SCHEDULED, +1 DAY", 1).next().get(0);
        Instant dayAfterNow = now.plus(Duration.ofDays(1));
        assertTrue(next.isAfter(dayAfterNow.minusSeconds(60)) && next.isBefore(dayAfterNow.plusSeconds(60)), "counted from now: " + next);

        ProblemException bad = assertThrows(ProblemException.class, () -> client.previewRepeat("SCHEDULED, +1 FORTNIGHT", 1));
        assertEquals(400, bad.status());
        assertEquals("repeat", bad.member("field"));
        assertTrue(bad.detail().contains("FORTNIGHT"), bad.detail());
    }

    @Test
    void batchCreateAddsAllInOrderOrNothing() {
        String type = LiveService.newType("batch");
        List<Saved> saved = client.createBatch(List.of(
                NewJob.of(type, JobSpec.withData(Map.of("n", 0))),
                new NewJob(type, "fixed", JobSpec.withData(Map.of("n", 1))),
                NewJob.of(type, JobSpec.withData(Map.of("n", 2)).priority(Priority.HIGH))));
        assertEquals(3, saved.size());
        for (int i = 0; i < 3; i++) {
            assertTrue(saved.get(i).created());
            assertEquals(i, saved.get(i).job().data().get("n").asInt(), "answers come in request order");
        }
        assertEquals("fixed", saved.get(1).job().id());
        assertFalse(client.createBatch(List.of(new NewJob(type, "fixed", JobSpec.empty()))).get(0).created());

        ProblemException invalid = assertThrows(ProblemException.class, () -> client.createBatch(List.of(
                new NewJob(type, "would-be-created", JobSpec.empty()),
                new NewJob(type, "bad", JobSpec.empty().maxAttempts(0)))));
        assertEquals(400, invalid.status());
        assertEquals(1, invalid.errors().size(), invalid.member("errors"));
        assertEquals(1, invalid.errors().get(0).index());
        assertEquals("jobs[1].maxAttempts", invalid.errors().get(0).field());
        assertTrue(client.get(type, "would-be-created").isEmpty(), "nothing was created");
    }

    @Test
    void batchFinishAnswersEachItemOnItsOwn() {
        String type = LiveService.newType("batch");
        for (int i = 0; i < 3; i++) {
            client.create(type, JobSpec.withData(Map.of("n", i)));
        }
        List<LeasedJob> jobs = client.accept(List.of(type), 3, Duration.ofSeconds(5), null);
        assertEquals(3, jobs.size());
        List<ItemResult> results = client.finishBatch(List.of(
                Finish.succeeded(jobs.get(0), Map.of("done", true)),
                Finish.failed(jobs.get(1), "smtp 451"),
                new Finish(type, jobs.get(2).id(), "not-the-lease", Outcome.SUCCEEDED, null, null)));
        assertEquals(200, results.get(0).status());
        assertEquals(JobResult.SUCCEEDED, results.get(0).job().result());
        assertEquals(200, results.get(1).status());
        assertEquals("smtp 451", results.get(1).job().lastError());
        assertEquals(409, results.get(2).status());
        assertEquals("lease-lost", results.get(2).reason());
        assertNull(results.get(2).job());
        assertEquals(JobState.RUNNING, client.get(type, jobs.get(2).id()).orElseThrow().state(),
                "the halted item changed nothing");

        List<ItemResult> beats = client.heartbeatBatch(List.of(Heartbeat.of(jobs.get(2), Map.of("p", 1)),
                Heartbeat.of(jobs.get(0), null)));
        assertEquals(200, beats.get(0).status());
        assertEquals(409, beats.get(1).status(), "a finished job's lease is spent");
    }

    @Test
    void aJobWithAfterWaitsAndBecomesDueWhenItsDependencySucceeds() {
        String type = LiveService.newType("deps");
        Job extract = client.create(type, JobSpec.withData(Map.of("step", "extract")));
        Job load = client.create(type, JobSpec.withData(Map.of("step", "load")).after(extract.ref()));
        assertEquals(List.of(extract.ref()), load.after());
        assertEquals(List.of(extract.ref()), load.waitingFor());
        assertEquals(JobState.PENDING, load.state());

        List<LeasedJob> first = client.accept(List.of(type), 2, Duration.ZERO, null);
        assertEquals(List.of(extract.id()), first.stream().map(LeasedJob::id).toList(), "only the dependency is due");
        assertEquals(List.of(extract.ref()), client.get(type, load.id()).orElseThrow().waitingFor());
        client.finish(Finish.succeeded(first.get(0), null));

        List<LeasedJob> next = client.accept(List.of(type), 1, Duration.ofSeconds(20), null);
        assertEquals(1, next.size(), "due once its dependency succeeded");
        assertEquals(load.id(), next.get(0).id());
        assertEquals(List.of(), next.get(0).job().waitingFor());
        assertEquals(List.of(extract.ref()), next.get(0).job().after(), "after keeps the dependencies as given");
    }

    @Test
    void aBatchItemMayWaitForAnEarlierOneAndAFailureCancelsOrRunsIt() throws Exception {
        String type = LiveService.newType("deps");
        JobRef extract = JobRef.of(type, "extract");
        List<Saved> saved = client.createBatch(List.of(
                new NewJob(type, "extract", JobSpec.empty().maxAttempts(1)),
                new NewJob(type, "load", JobSpec.empty().after(extract)),
                new NewJob(type, "report", JobSpec.empty().after(extract).afterFailure(AfterFailure.RUN))));
        assertEquals(List.of(extract), saved.get(1).job().waitingFor());
        LeasedJob leased = client.accept(List.of(type), 3, Duration.ZERO, null).get(0);
        assertEquals("extract", leased.id());
        client.finish(Finish.failed(leased, "no orders"));

        Job load = client.waitFor(type, "load", JobState.FINISHED, Duration.ofSeconds(20));
        assertEquals(JobResult.CANCELLED, load.result(), "afterFailure cancel is the default");
        assertTrue(load.lastError().contains("extract"), load.lastError());
        List<LeasedJob> report = client.accept(List.of(type), 1, Duration.ofSeconds(20), null);
        assertEquals("report", report.get(0).id(), "afterFailure run runs it anyway");
    }

    @Test
    void concurrencyAndRateLimitsRoundTripAndHoldAccepts() {
        String type = LiveService.newType("limits");
        TypeInfo set = client.configureType(type, Map.of("concurrency", Concurrency.max(1),
                "rateLimit", RateLimit.of(100, Duration.ofMillis(60_500)).eachGroup()));
        assertEquals(Concurrency.max(1), set.concurrency());
        assertEquals(new RateLimit(100, Duration.ofMillis(60_500), true), set.rateLimit());
        TypeInfo read = client.type(type).orElseThrow();
        assertEquals(Concurrency.max(1), read.concurrency());
        assertEquals(set.rateLimit(), read.rateLimit());

        client.create(type, JobSpec.empty());
        client.create(type, JobSpec.empty());
        assertEquals(1, client.accept(List.of(type), 2, Duration.ZERO, null).size(), "one at a time");

        Map<String, Object> lift = new HashMap<>();
        lift.put("concurrency", Concurrency.UNLIMITED);
        lift.put("rateLimit", null);
        TypeInfo lifted = client.configureType(type, lift);
        assertEquals(Concurrency.UNLIMITED, lifted.concurrency());
        assertNull(lifted.rateLimit());
        assertEquals(1, client.accept(List.of(type), 2, Duration.ZERO, null).size(), "the other one, now");
    }
}
