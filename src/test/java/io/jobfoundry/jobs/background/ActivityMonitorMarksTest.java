package io.jobfoundry.jobs.background;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.MutableClock;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.kv.ForwardingStore;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionBody;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mark pairs a time with the latest activity stamp: every activity up to that stamp must have happened by that
 * time, or a job would come back before it has been quiet for its timeout.
 */
class ActivityMonitorMarksTest {

    private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");

    @TempDir
    Path folder;

    /** Runs a hook once, before the chosen transaction counted from when it is armed. */
    private static final class Hooked extends ForwardingStore {
        private final AtomicInteger countdown = new AtomicInteger(-1);
        private final AtomicReference<Runnable> hook = new AtomicReference<>();

        Hooked(KvStore delegate) {
            super(delegate);
        }

        void beforeTransaction(int nth, Runnable action) {
            hook.set(action);
            countdown.set(nth);
        }

        @Override
        public <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
            if (countdown.decrementAndGet() == 0) {
                hook.getAndSet(null).run();
            }
            return delegate.runOnce(body, timeout, sync);
        }
    }

    @Test
    void aHeartbeatBetweenARunsStartAndItsReadOfTheLatestActivityCountsFromWhenItHappened() {
        try (Hooked store = new Hooked(EmbeddedStore.open(
                EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS)))) {
            MutableClock clock = new MutableClock(START);
            JobEngine engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), clock,
                    EngineOptions.DEFAULT);
            ActivityMonitor monitor = new ActivityMonitor(engine.context());
            engine.put("email", "a", JobChanges.NONE);
            LeasedJob run = engine.accept(new AcceptRequest(List.of("email"), 1, null, "w")).get(0);
            assertEquals(Map.of(), monitor.runOnce()); // 0 s

            // The next run starts at 3 s; before it reads the latest activity (its second transaction, after the
            // types' settings), 5 s pass and the worker beats. The default activity timeout is 30 s.
            clock.advance(Duration.ofSeconds(3));
            store.beforeTransaction(2, () -> {
                clock.advance(Duration.ofSeconds(5));
                engine.heartbeat("email", "a", run.lease(), Change.keep());
            });
            assertEquals(Map.of(), monitor.runOnce());

            clock.set(START.plusSeconds(33));
            assertEquals(Map.of(), monitor.runOnce(), "quiet for 25 s since its beat at 8 s, not 30");
            clock.set(START.plusSeconds(38));
            assertEquals(Map.of("email", 1), monitor.runOnce(), "quiet for 30 s");
        }
    }
}
