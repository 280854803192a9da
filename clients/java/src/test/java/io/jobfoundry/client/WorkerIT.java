package io.jobfoundry.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The worker runtime against the real service: each test uses a type of its own. */
class WorkerIT {

    private static final Duration LONG = Duration.ofSeconds(30);

    private final JobfoundryClient client = LiveService.client();

    @Test
    void aJobIsHandledWithItsDataProgressAndResult() throws Exception {
        String type = LiveService.quickType(client, "work");
        Job job = client.create(type, JobSpec.withData(Map.of("n", 2)));
        CountDownLatch progressSeen = new CountDownLatch(1);
        try (Worker worker = Worker.builder(client, ctx -> {
            ctx.progress(Map.of("n", ctx.data().get("n").asInt(), "step", 1));
            assertTrue(progressSeen.await(20, TimeUnit.SECONDS), "the test saw the progress");
            return Map.of("n", ctx.data().get("n").asInt() * 2);
        }, type).build().start()) {
            LiveService.awaitTrue(() -> client.get(type, job.id()).orElseThrow().data().has("step"), LONG,
                    "progress shown by GET");
            progressSeen.countDown();
            Job done = client.waitFor(type, job.id(), JobState.FINISHED, LONG);
            assertEquals(JobResult.SUCCEEDED, done.result());
            assertEquals(4, done.data().get("n").asInt());
            assertEquals(0, done.attempt());
        }
    }

    @Test
    void anExceptionFailsTheJobWithItsMessage() throws Exception {
        String type = LiveService.quickType(client, "fail");
        Job job = client.create(type, JobSpec.empty().maxAttempts(1));
        try (Worker worker = Worker.builder(client, ctx -> {
            throw new IllegalStateException("smtp 451: try later");
        }, type).build().start()) {
            Job done = client.waitFor(type, job.id(), JobState.FINISHED, LONG);
            assertEquals(JobResult.FAILED, done.result());
            assertEquals("smtp 451: try later", done.lastError());
            LiveService.awaitTrue(() -> worker.stats().failed() == 1, LONG, "counted as failed");
        }
    }

    @Test
    void heartbeatsKeepAJobLongerThanItsActivityTimeout() throws Exception {
        // 2 s rather than 1: a loaded machine may hold a beat up for a moment, which is not what this is about.
        String type = LiveService.quickType(client, "long", 2);
        Job job = client.create(type, JobSpec.empty());
        try (Worker worker = Worker.builder(client, ctx -> {
            Thread.sleep(5000); // two and a half activity timeouts
            return null;
        }, type).concurrency(1).build().start()) {
            Job done = client.waitFor(type, job.id(), JobState.FINISHED, LONG);
            assertEquals(JobResult.SUCCEEDED, done.result());
            assertEquals(0, done.attempt(), "never timed out");
            assertTrue(worker.stats().heartbeatCalls() >= 6, "beats every third of the timeout: " + worker.stats());
        }
    }

    @Test
    void aHaltInterruptsTheHandlerAndTheJobIsNeverFinished() throws Exception {
        String type = LiveService.quickType(client, "halt");
        Job job = client.create(type, JobSpec.empty());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        try (Worker worker = Worker.builder(client, ctx -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return Map.of("finished", "by a handler that ignored the halt"); // must not be reported
        }, type).build().start()) {
            assertTrue(started.await(30, TimeUnit.SECONDS));
            client.cancel(type, job.id());
            assertTrue(interrupted.await(10, TimeUnit.SECONDS), "the handler was interrupted");
            LiveService.awaitTrue(() -> worker.stats().running() == 0, LONG, "the job let go");
            Job done = client.get(type, job.id()).orElseThrow();
            assertEquals(JobResult.CANCELLED, done.result());
            assertFalse(done.data() != null && done.data().has("finished"));
            WorkerStats stats = worker.stats();
            assertEquals(1, stats.halted());
            assertEquals(0, stats.succeeded());
            assertEquals(0, stats.finishCalls() + stats.finishBatches(), "no finish was sent");
        }
    }

    @Test
    void aRemovedJobHaltsItsHandler() throws Exception {
        String type = LiveService.quickType(client, "halt");
        Job job = client.create(type, JobSpec.empty());
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<String> reason = new AtomicReference<>();
        try (Worker worker = Worker.builder(client, ctx -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } finally {
                reason.set(ctx.haltReason());
            }
            return null;
        }, type).build().start()) {
            assertTrue(started.await(30, TimeUnit.SECONDS));
            assertTrue(client.remove(type, job.id()));
            LiveService.awaitTrue(() -> reason.get() != null, LONG, "the handler stopped");
            assertTrue(reason.get().equals("removed") || reason.get().equals("lease-lost"), reason.get());
            assertEquals(0, worker.stats().failed());
        }
    }

    @Test
    void aCrashedWorkersJobComesBackToAnother() throws Exception {
        String type = LiveService.quickType(client, "crash");
        Job job = client.create(type, JobSpec.withData(Map.of("n", 1)));
        Process crasher = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), "-XX:TieredStopAtLevel=1", CrashingWorkerMain.class.getName(), LiveService.url(), type)
                .redirectErrorStream(true).redirectOutput(Path.of("target", "crashing-worker.log").toFile()).start();
        try {
            Job taken = client.waitFor(type, job.id(), JobState.RUNNING, Duration.ofSeconds(60));
            assertEquals(JobState.RUNNING, taken.state());
            assertEquals("crasher", taken.worker());
        } finally {
            crasher.destroyForcibly(); // SIGKILL: no shutdown, no last heartbeat
            crasher.waitFor(10, TimeUnit.SECONDS);
        }
        AtomicReference<Job> seen = new AtomicReference<>();
        try (Worker rescuer = Worker.builder(client, ctx -> {
            seen.set(ctx.job());
            return null;
        }, type).name("rescuer").build().start()) {
            Job done = client.waitFor(type, job.id(), JobState.FINISHED, LONG);
            assertEquals(JobResult.SUCCEEDED, done.result());
            assertNotNull(seen.get());
            assertEquals(1, seen.get().attempt(), "the crashed run counted as an attempt");
            assertNotNull(seen.get().lastError(), "and says why");
            assertEquals("rescuer", seen.get().worker());
        }
    }

    @Test
    void shutdownLetsRunningJobsFinishAndLeavesTheRestPending() throws Exception {
        String type = LiveService.quickType(client, "drain");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add(client.create(type, JobSpec.empty()).id());
        }
        Worker first = Worker.builder(client, ctx -> {
            Thread.sleep(500);
            return null;
        }, type).concurrency(3).build().start();
        LiveService.awaitTrue(() -> first.stats().accepted() >= 3, LONG, "three running");
        assertTrue(first.shutdown(Duration.ofSeconds(20)), "every running job finished in time");
        WorkerStats stats = first.stats();
        assertEquals(stats.accepted(), stats.succeeded());
        int finished = 0;
        for (String id : ids) {
            Job job = client.get(type, id).orElseThrow();
            assertFalse(job.state() == JobState.RUNNING, "nothing is left running: " + job);
            finished += job.state() == JobState.FINISHED ? 1 : 0;
        }
        assertEquals(stats.succeeded(), finished);
        assertTrue(finished < 10, "the shutdown stopped taking jobs");

        try (Worker second = Worker.builder(client, ctx -> null, type).concurrency(3).build().start()) {
            LiveService.awaitTrue(() -> client.type(type).orElseThrow().count("succeeded") == 10, LONG,
                    "the rest done by another worker");
        }
    }

    @Test
    void shutdownAbandonsAWaitingAcceptWithoutTakingAJob() throws Exception {
        String type = LiveService.quickType(client, "idle");
        AtomicInteger handled = new AtomicInteger();
        int othersWaiting = LiveService.waitingAccepts();
        Worker worker = Worker.builder(client, ctx -> handled.incrementAndGet(), type)
                .acceptWait(Duration.ofSeconds(60)).build().start();
        LiveService.awaitTrue(() -> LiveService.waitingAccepts() > othersWaiting, LONG, "the accept waits on the service");
        long start = System.nanoTime();
        assertTrue(worker.shutdown(Duration.ofSeconds(10)));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "did not wait out the accept");
        // The job is made once the service has seen the cut accept's connection close: made before,
        // it could be handed to that accept, whose answer no one reads.
        LiveService.awaitTrue(() -> LiveService.waitingAccepts() <= othersWaiting, LONG, "the cut accept left the service");
        Job job = client.create(type, JobSpec.empty());
        Thread.sleep(500);
        assertEquals(JobState.PENDING, client.get(type, job.id()).orElseThrow().state(),
                "no job went to the worker that left");
        assertEquals(0, handled.get());
    }

    @Test
    void aJobStillRunningAtTheDeadlineComesBackLater() throws Exception {
        String type = LiveService.quickType(client, "deadline");
        Job job = client.create(type, JobSpec.empty());
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Worker slow = Worker.builder(client, ctx -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            }
            return null;
        }, type).build().start();
        assertTrue(started.await(30, TimeUnit.SECONDS));
        assertFalse(slow.shutdown(Duration.ofMillis(200)), "the deadline passed");
        assertTrue(interrupted.get());
        assertEquals(1, slow.stats().abandoned());
        assertEquals(0, slow.stats().failed(), "an abandoned job is not failed");
        try (Worker next = Worker.builder(client, ctx -> null, type).build().start()) {
            Job done = client.waitFor(type, job.id(), JobState.FINISHED, LONG);
            assertEquals(JobResult.SUCCEEDED, done.result());
        }
    }

    @Test
    void aResultTheServiceRefusesFailsThatJobAloneAndTheOthersAreFinished() throws Exception {
        String type = LiveService.quickType(client, "refused", 30);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ids.add(client.create(type, JobSpec.withData(Map.of("n", i)).maxAttempts(1)).id());
        }
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(8);
        try (Worker worker = Worker.builder(client, ctx -> {
            together.await(20, TimeUnit.SECONDS); // their finishes are ready together, so they go in batches
            return ctx.data().get("n").asInt() == 3
                    ? Map.of("report", "x".repeat(70_000)) // over the service's 64 KiB of data
                    : Map.of("done", ctx.data().get("n").asInt());
        }, type).concurrency(8).build().start()) {
            LiveService.awaitTrue(() -> worker.stats().running() == 0 && worker.stats().accepted() == 8, LONG,
                    "every finish answered");
            WorkerStats stats = worker.stats();
            assertEquals(0, stats.lostFinishes(), stats.toString());
            assertEquals(7, stats.succeeded(), stats.toString());
            assertEquals(1, stats.failed(), stats.toString());
        }
        for (int i = 0; i < 8; i++) {
            Job job = client.get(type, ids.get(i)).orElseThrow();
            assertEquals(JobState.FINISHED, job.state(), job.toString());
            if (i == 3) {
                assertEquals(JobResult.FAILED, job.result());
                assertTrue(job.lastError().contains("could not be sent") && job.lastError().contains("65536"),
                        job.lastError());
            } else {
                assertEquals(JobResult.SUCCEEDED, job.result());
                assertEquals(i, job.data().get("done").asInt());
            }
        }
    }

    @Test
    void underLoadAcceptsTakeEveryFreeSlotAndFinishesAndHeartbeatsGoInBatches() throws Exception {
        // Heartbeats every second, each job 1.5 s: a beat half a second before each finish, and two seconds of
        // slack before a lease is lost, for a loaded machine.
        String type = LiveService.quickType(client, "load", 3);
        for (int i = 0; i < 24; i++) {
            client.create(type, JobSpec.withData(Map.of("n", i)));
        }
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(8);
        try (Worker worker = Worker.builder(client, ctx -> {
            together.await(20, TimeUnit.SECONDS); // eight at once, so that their heartbeats and finishes coincide
            Thread.sleep(1500);
            return null;
        }, type).concurrency(8).build().start()) {
            // the worker counts a job when its finish is answered, after the service has counted it
            LiveService.awaitTrue(() -> worker.stats().succeeded() == 24, LONG, "all done, every finish answered");
            assertEquals(24, client.type(type).orElseThrow().count("succeeded"));
            WorkerStats stats = worker.stats();
            assertEquals(8, stats.largestAccept(), "one accept filled every slot: " + stats);
            assertTrue(stats.finishBatches() >= 1 && stats.largestFinishBatch() > 1, "finishes were batched: " + stats);
            assertTrue(stats.heartbeatBatches() >= 1, "heartbeats were batched: " + stats);
            assertEquals(0, stats.halted(), "no lease was lost, and a beat crossing a finish is no halt: " + stats);
        }
    }
}
