package io.jobfoundry.jobs.waits;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionBody;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store slower than the workers' waits (FoundationDB on a loaded cluster, a round of many
 * jobs): the accepts must still get the jobs. Their rounds used to take the jobs, find the waits
 * over by the time they committed, and give every job back: on FoundationDB, 16 workers taking
 * 16 jobs each with a 200 ms wait handed out nothing for minutes while the queue stood full.
 */
class SlowRoundTest {

    @TempDir
    Path folder;

    private KvStore embedded;
    private volatile boolean slow;
    /** Counted down when the accepts' timer has run a task: the wait has ended. */
    private final CountDownLatch waitEnded = new CountDownLatch(1);
    private JobEngine engine;
    private ExecutorService pool;
    private ScheduledExecutorService timer;
    private JobWaits waits;

    /** The embedded store, each of whose transactions, while {@code slow}, ends only once the wait has. */
    private final class SlowStore implements KvStore {
        @Override
        public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
            return runOnce(body, timeout, Sync.ON_COMMIT);
        }

        @Override
        public <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
            return embedded.runOnce(tx -> {
                T result = body.apply(tx);
                if (slow) {
                    awaitWaitEnded();
                }
                return result;
            }, timeout, sync);
        }

        private void awaitWaitEnded() {
            try {
                if (!waitEnded.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the accept's wait never ended");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public String describe() {
            return "slow " + embedded.describe();
        }

        @Override
        public void close() {
            embedded.close();
        }
    }

    @BeforeEach
    void start() {
        embedded = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS));
        engine = new JobEngine(new TransactionRunner(new SlowStore(), RetryPolicy.DEFAULT), Clock.systemUTC(),
                EngineOptions.DEFAULT);
        pool = Executors.newFixedThreadPool(2);
        timer = new ScheduledThreadPoolExecutor(1) {
            @Override
            protected void afterExecute(Runnable task, Throwable failure) {
                waitEnded.countDown(); // the only task it is given here: the accept's wait running out
            }
        };
        waits = new JobWaits(engine.accepting(), pool, timer);
    }

    @AfterEach
    void stop() {
        waits.close();
        pool.shutdownNow();
        timer.shutdownNow();
        embedded.close();
    }

    @Test
    void anAcceptWhoseWaitEndsBeforeItsRoundCommitsGetsTheJobsTheRoundTook() throws Exception {
        for (int i = 0; i < 3; i++) {
            engine.put("slow", "j" + i, JobChanges.NONE);
        }
        slow = true;
        List<LeasedJob> got = waits.accept(new AcceptRequest(List.of("slow"), 3, null, "w"), Duration.ofMillis(50))
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        slow = false;
        assertEquals(3, got.size(), "the jobs the round took, answered when it committed after the wait had ended");
        for (LeasedJob leased : got) {
            assertEquals(JobState.RUNNING, engine.get("slow", leased.job().id()).orElseThrow().state());
        }
        assertEquals(3, engine.type("slow").orElseThrow().counts().running(), "none was given back");
    }
}
