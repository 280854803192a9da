package io.jobfoundry.jobs.records;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.NewJob;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One resolver transaction touches at most a page of waiting jobs, whatever their number, and the
 * marker goes only with the last page: the bound that keeps a fan-out of any size within
 * FoundationDB's limits. (The engine contract checks what a whole run does, on every store.)
 */
class ResolutionsTest {

    private static final JobRef SOURCE = new JobRef("source", "s");

    @TempDir
    Path folder;

    private KvStore store;
    private TransactionRunner runner;
    private JobEngine engine;

    @BeforeEach
    void open() {
        store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("r.db")).withDurability(Durability.OS));
        runner = new TransactionRunner(store, RetryPolicy.DEFAULT);
        engine = new JobEngine(runner, Clock.fixed(Instant.parse("2026-11-21T10:00:00Z"), ZoneOffset.UTC),
                EngineOptions.DEFAULT);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void eachTransactionMovesAtMostAPageAndTheLastClearsTheMarker() {
        engine.put("source", "s", JobChanges.NONE);
        engine.batches().createAll(IntStream.range(0, 250).mapToObj(i -> new NewJob("sink", "k" + i,
                JobChanges.NONE.withAfter(List.of(SOURCE)))).toList()).join();
        LeasedJob leased = engine.accept(new AcceptRequest(List.of("source"), 1, null, "w")).get(0);
        engine.finish("source", "s", leased.lease(), true, Change.keep(), null);
        byte[] marker = DependencyKeys.marker("source", "s");
        assertNotNull(runner.run(tx -> tx.get(marker)), "the finish left a marker");

        Resolutions.Page first = runner.run(tx -> Resolutions.step(tx, SOURCE, null, null, 100, engine.context().now()));
        assertEquals(100, first.moved());
        assertFalse(first.done());
        assertEquals(new Counts(250, 100, 0, 0, 0, 0), counts());
        assertNotNull(runner.run(tx -> tx.get(marker)), "kept until the last page");

        Resolutions.Page second = runner.run(tx -> Resolutions.step(tx, SOURCE, first.next(), first.marker(), 100, engine.context().now()));
        assertEquals(100, second.moved());
        Resolutions.Page last = runner.run(tx -> Resolutions.step(tx, SOURCE, second.next(), first.marker(), 100, engine.context().now()));
        assertEquals(50, last.moved());
        assertTrue(last.done());
        assertNull(runner.run(tx -> tx.get(marker)));
        assertEquals(new Counts(250, 250, 0, 0, 0, 0), counts());
        assertTrue(runner.run(tx -> tx.getRange(DependencyKeys.edgesBegin("source", "s"), DependencyKeys.edgesEnd("source", "s"), 0))
                .isEmpty(), "every edge resolved");
    }

    @Test
    void aMarkerRewrittenWhileItsPagesAreWorkedThroughIsNotCleared() {
        engine.put("source", "s", JobChanges.NONE);
        engine.put("sink", "k", JobChanges.NONE.withAfter(List.of(SOURCE)));
        engine.cancel("source", "s");
        byte[] marker = DependencyKeys.marker("source", "s");
        byte[] seen = runner.run(tx -> tx.get(marker));

        // As if the marker had been rewritten since its first page was read.
        Resolutions.Page page = runner.run(tx -> Resolutions.step(tx, SOURCE, null, new byte[] {1}, 100, engine.context().now()));

        assertFalse(page.done());
        assertNull(page.next(), "from the first edge again");
        assertArrayEquals(seen, runner.run(tx -> tx.get(marker)), "the marker stays");
        assertTrue(runner.run(tx -> Resolutions.step(tx, SOURCE, null, page.marker(), 100, engine.context().now())).done());
        assertNull(runner.run(tx -> tx.get(marker)));
    }

    private Counts counts() {
        return engine.type("sink").orElseThrow().counts();
    }
}
