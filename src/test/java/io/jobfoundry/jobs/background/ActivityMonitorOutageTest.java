package io.jobfoundry.jobs.background;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.MutableClock;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.kv.ForwardingStore;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetriesExhaustedException;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.RetryableStoreException;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The activity monitor's memory of past activity outlives runs that fail. */
class ActivityMonitorOutageTest {

    private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");

    @TempDir
    Path folder;

    /** A store that, during an outage, lets only the next few transactions through. */
    private static final class Outage extends ForwardingStore {
        private final AtomicInteger passes = new AtomicInteger(Integer.MAX_VALUE);

        Outage(KvStore delegate) {
            super(delegate);
        }

        void begin(int letThrough) {
            passes.set(letThrough);
        }

        void end() {
            passes.set(Integer.MAX_VALUE);
        }

        @Override
        public <T> T runOnce(TransactionBody<T> body, Duration timeout, Sync sync) {
            if (passes.getAndDecrement() <= 0) {
                throw new RetryableStoreException(RetryableStoreException.Reason.TRANSIENT, describe(), null);
            }
            return delegate.runOnce(body, timeout, sync);
        }
    }

    @Test
    void runsThatFailLoseNoMarks() {
        try (Outage store = new Outage(EmbeddedStore.open(
                EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS)))) {
            MutableClock clock = new MutableClock(START);
            JobEngine engine = new JobEngine(new TransactionRunner(store,
                    new RetryPolicy(2, Duration.ofSeconds(5), Duration.ZERO, Duration.ZERO, Duration.ZERO)),
                    clock, EngineOptions.DEFAULT);
            ActivityMonitor monitor = new ActivityMonitor(engine.context());
            engine.put("email", "a", JobChanges.NONE);
            assertEquals(1, engine.accept(new AcceptRequest(List.of("email"), 1, null, "w")).size());
            // The default timeout is 30 s; the monitor runs every tenth of it.
            for (int t = 0; t < 12; t += 3) {
                monitor.runOnce();
                clock.advance(Duration.ofSeconds(3));
            }
            // From 12 s to 57 s each run reads the types, and every transaction after that fails.
            for (int t = 12; t < 60; t += 3) {
                store.begin(1);
                assertThrows(RetriesExhaustedException.class, monitor::runOnce, "at " + t + " s");
                clock.advance(Duration.ofSeconds(3));
            }
            store.end();

            // 60 s: quiet for two timeouts, as the marks taken before the outage still show.
            assertEquals(Map.of("email", 1), monitor.runOnce());
        }
    }
}
