package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.CapturedLog;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.records.Runs;
import io.jobfoundry.kv.ForwardingStore;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionBody;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call whose commit result was unknown runs again, and its job may have been accepted in between (it was due at
 * once). The retry must recognize its own earlier commit: a finish rather than tell the worker its lease was lost,
 * an add or a resubmit rather than flag the job it made pending, and now running, to run once more.
 */
class UnknownCommitRetryTest {

    @TempDir
    Path folder;

    private EmbeddedStore embedded;
    private final AtomicReference<Runnable> afterNextCommit = new AtomicReference<>();
    private JobEngine engine;

    @BeforeEach
    void start() {
        embedded = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")));
        KvStore store = new ForwardingStore(embedded) {
            @Override
            public <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
                T result = delegate.runOnce(body, timeout, sync);
                Runnable hook = afterNextCommit.getAndSet(null);
                if (hook != null) {
                    hook.run();
                    throw new RetryableStoreException(RetryableStoreException.Reason.COMMIT_UNKNOWN, describe(), null);
                }
                return result;
            }
        };
        engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT),
                new MutableClock(Instant.parse("2026-11-21T10:00:00Z")), EngineOptions.DEFAULT);
    }

    @AfterEach
    void stop() {
        embedded.close();
    }

    @Test
    void aFinishRetriedAfterAnUnknownCommitIsItsOwnEvenIfTheJobRanAgainMeanwhile() {
        engine.put("t", "a", JobChanges.NONE);
        LeasedJob first = engine.accept(new AcceptRequest(List.of("t"), 1, null, "w1")).get(0);
        engine.resubmit("t", "a", null, first.lease()); // runs again as soon as this run ends
        AtomicReference<LeasedJob> second = new AtomicReference<>();
        afterNextCommit.set(() -> second.set(engine.accept(new AcceptRequest(List.of("t"), 1, null, "w2")).get(0)));

        Job answered = engine.finish("t", "a", first.lease(), true, Change.to("{\"done\":1}"), null);

        assertEquals("a", second.get().job().id(), "the job was accepted again before the finish's retry");
        assertEquals(JobState.RUNNING, answered.state(), "the job as it is now, not a halt");
        assertEquals("{\"done\":1}", answered.data());
    }

    @Test
    void aPutRetriedAfterAnUnknownCommitDoesNotRunTheJobItMadePendingTwice() {
        AtomicReference<LeasedJob> second = finishedThenAcceptedAfterTheNextCommit("a");

        Job answered = engine.put("t", "a", JobChanges.NONE.withData("{\"n\":2}")).job();

        assertEquals("a", second.get().job().id(), "the job the PUT made pending was accepted before its retry");
        assertEquals(JobState.RUNNING, answered.state());
        assertFalse(answered.resubmit(), "the retry found its own change, not a running job to flag");
        assertEquals(JobState.FINISHED, engine.finish("t", "a", second.get().lease(), true, Change.keep(), null).state(),
                "one run for one PUT");
        // A PUT of its own (another call) still flags a running job, as couch_jobs' add does.
        LeasedJob third = runAgain("a");
        assertTrue(engine.put("t", "a", JobChanges.NONE).job().resubmit());
        assertEquals(JobState.PENDING, engine.finish("t", "a", third.lease(), true, Change.keep(), null).state());
    }

    @Test
    void aResubmitRetriedAfterAnUnknownCommitDoesNotRunTheJobTwice() {
        AtomicReference<LeasedJob> second = finishedThenAcceptedAfterTheNextCommit("b");

        Job answered = engine.resubmit("t", "b", null, null);

        assertEquals("b", second.get().job().id());
        assertFalse(answered.resubmit(), "the retry found its own change, not a running job to flag");
        assertEquals(JobState.FINISHED, engine.finish("t", "b", second.get().lease(), true, Change.keep(), null).state());
    }

    /**
     * Job {@code id} run once and finished; the next commit (the call under test's first attempt) is then reported
     * unknown, after a worker has accepted what it made due. Answers that worker's lease, once taken.
     */
    private AtomicReference<LeasedJob> finishedThenAcceptedAfterTheNextCommit(String id) {
        engine.put("t", id, JobChanges.NONE);
        LeasedJob first = engine.accept(new AcceptRequest(List.of("t"), 1, null, "w1")).get(0);
        engine.finish("t", id, first.lease(), true, Change.keep(), null);
        AtomicReference<LeasedJob> second = new AtomicReference<>();
        afterNextCommit.set(() -> second.set(engine.accept(new AcceptRequest(List.of("t"), 1, null, "w2")).get(0)));
        return second;
    }

    private LeasedJob runAgain(String id) {
        engine.resubmit("t", id, null, null);
        return engine.accept(new AcceptRequest(List.of("t"), 1, null, "w3")).get(0);
    }

    /**
     * A finish that ends a repeating series says so once: after its transaction committed, not in
     * each attempt; and still once when the commit was reported unknown and the retry finds the
     * series ended by its own first attempt.
     */
    @Test
    void theEndOfASeriesIsLoggedOnceAfterTheCommit() {
        engine.put("ancient", "a", JobChanges.NONE.withRepeat("SCHEDULED, -2000 YEARS, +2001 YEARS")
                .withScheduledAt(Instant.parse("1800-01-01T00:00:00Z")));
        LeasedJob run = engine.accept(new AcceptRequest(List.of("ancient"), 1, null, "w")).get(0);
        try (CapturedLog log = CapturedLog.of(Runs.class)) {
            afterNextCommit.set(() -> assertEquals(List.of(), log.messagesAtLeast(Level.WARNING), "not before the commit"));

            Job ended = engine.finish("ancient", "a", run.lease(), true, Change.keep(), null);

            assertEquals(JobState.FINISHED, ended.state());
            List<String> warnings = log.messagesAtLeast(Level.WARNING);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).startsWith("job a of type ancient: ") && warnings.get(0).endsWith("the job repeats no more"),
                    warnings.get(0));
        }
    }
}
