package io.jobfoundry.monitors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.CapturedLog;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.MutableClock;
import io.jobfoundry.jobs.background.ActivityMonitor;
import io.jobfoundry.jobs.background.JobCleaner;
import io.jobfoundry.jobs.background.OutcomeRetention;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator reads from the monitors: one INFO line per type and action that changed
 * something, with the count; routine work (old outcomes forgotten) and passes that find nothing
 * stay below INFO.
 */
class MonitorsLogTest {

    @TempDir
    Path folder;

    private CapturedLog log;

    private KvStore store;
    private MutableClock clock;
    private JobEngine engine;
    private Monitors monitors;

    @BeforeEach
    void start() {
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS));
        clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
        engine = new JobEngine(new TransactionRunner(store, RetryPolicy.DEFAULT), clock, EngineOptions.DEFAULT);
        // activity() and retention() use neither the timers nor the configuration.
        monitors = new Monitors(new ActivityMonitor(engine.context()), null, null, new OutcomeRetention(engine.context()),
                new JobCleaner(engine.context()), null, () -> false);
        log = CapturedLog.of(Monitors.class);
    }

    @AfterEach
    void stop() {
        log.close();
        store.close();
    }

    @Test
    void reenqueuedJobsAreOneInfoLinePerTypeWithTheCount() {
        for (String id : List.of("a", "b")) {
            engine.put("email", id, JobChanges.NONE);
        }
        engine.put("sms", "c", JobChanges.NONE);
        assertEquals(2, engine.accept(new AcceptRequest(List.of("email"), 2, null, "w")).size());
        assertEquals(1, engine.accept(new AcceptRequest(List.of("sms"), 1, null, "w")).size());

        monitors.activity();
        assertEquals(List.of(), info(), "a pass that re-enqueues nothing says nothing");

        clock.advance(Duration.ofSeconds(31)); // past the default activity timeout of 30 s
        monitors.activity();
        List<String> lines = info();
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.contains("activity monitor: took back 2 job(s) of type email whose processor went quiet"),
                lines.toString());
        assertTrue(lines.contains("activity monitor: took back 1 job(s) of type sms whose processor went quiet"),
                lines.toString());

        log.clear();
        monitors.activity();
        assertEquals(List.of(), info(), "the same jobs are not reported again");
    }

    @Test
    void retentionIsRoutineAndStaysBelowInfo() {
        engine.put("email", "a", JobChanges.NONE);
        engine.remove("email", "a"); // leaves an outcome record for retention to forget
        clock.advance(Duration.ofHours(1));
        monitors.retention();
        assertEquals(List.of(), info());
    }

    private List<String> info() {
        return log.messagesAtLeast(Level.INFO);
    }
}
