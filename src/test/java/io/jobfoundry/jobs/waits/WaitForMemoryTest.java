package io.jobfoundry.jobs.waits;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.ManualScheduler;
import io.jobfoundry.jobs.MutableClock;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A long-poll holds what it needs now, not something for every change it has seen. */
class WaitForMemoryTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @TempDir
    Path folder;

    @Test
    void aWaitForHoldsNothingPerChangeItSees() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));
        ManualScheduler manual = new ManualScheduler(clock);
        try (EmbeddedStore store = EmbeddedStore.open(
                EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS))) {
            JobEngine engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), clock, EngineOptions.DEFAULT);
            JobWaits waits = new JobWaits(engine.accepting(), manual, manual);
            engine.put("t", "a", JobChanges.NONE);
            CompletableFuture<Job> finished =
                    waits.waitFor("t", "a", JobState.FINISHED, Duration.ofMinutes(5)).toCompletableFuture();
            manual.runDue(); // looks at the job, and watches it

            for (int i = 0; i < 50; i++) {
                engine.patch("t", "a", JobChanges.NONE.withData("{\"i\":" + i + "}"));
                // The watch fires on the store's thread, which hands the next look to the executor.
                assertTrue(manual.awaitTask(Duration.ZERO, PATIENCE).isPresent(), "the change woke the wait");
                manual.runDue();
            }

            assertFalse(finished.isDone());
            // Its own timeout and cleanup, and nothing per change (the 50 changes left 50 callbacks before).
            assertTrue(finished.getNumberOfDependents() <= 3, "dependents: " + finished.getNumberOfDependents());
            manual.shutdownNow();
        }
    }
}
