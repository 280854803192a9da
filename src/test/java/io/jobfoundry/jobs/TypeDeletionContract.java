package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.RateLimit;
import io.jobfoundry.jobs.model.TypeInUseException;
import io.jobfoundry.jobs.model.TypeInfo;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Deleting a type: only once no job of it is left, every key of its own with it, and its next
 * job registers it anew with the defaults.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it.
 */
public interface TypeDeletionContract extends EngineFixture {

    @Test
    default void aTypeNoJobUsesGoesWithItsSettingsPauseCountersAndSlots() {
        engine().configureType("report", s -> s.withLimits(new Concurrency(2, 1),
                new RateLimit(1, Duration.ofHours(1), true)));
        engine().put("report", "r1", JobChanges.NONE.withGroup("acme"));
        add("report.daily", "d1");
        finish(acceptOne("report"), true);
        engine().pause("report", true);
        engine().remove("report", "r1");

        assertTrue(engine().deleteType("report"));

        assertTrue(engine().type("report").isEmpty());
        assertEquals(List.of("report.daily"), engine().types().stream().map(TypeInfo::type).toList());
        assertEquals(List.of(), keysOf("report"), "every key of the type's own is gone");
        assertEquals(1, engine().type("report.daily").orElseThrow().counts().pending(),
                "a type whose name begins with the deleted one's keeps its jobs");

        // Its next job registers it anew: the defaults, not paused, counted from zero, and the rate
        // slot its first job took (one start an hour per group) is no longer there.
        engine().put("report", "r2", JobChanges.NONE.withGroup("acme"));
        TypeInfo again = engine().type("report").orElseThrow();
        assertEquals(TypeSettings.DEFAULT, again.settings());
        assertFalse(again.paused());
        assertEquals(1, again.counts().pending());
        assertEquals(0, again.counts().succeeded());
        assertEquals("r2", acceptOne("report").job().id());
    }

    @Test
    default void aTypeWithJobsIsKeptAndTheRefusalCountsThem() {
        engine().configureType("mail", s -> s.withLimits(new Concurrency(5, null), null));
        add("mail", "done");
        finish(acceptOne("mail"), true);
        add("mail", "runs");
        LeasedJob running = acceptOne("mail");
        add("mail", "waits");

        TypeInUseException refused = assertThrows(TypeInUseException.class, () -> engine().deleteType("mail"));
        assertEquals(new Counts(1, 1, 1, 1, 0, 0), refused.counts());
        assertEquals("mail", refused.type());
        assertEquals(5, engine().type("mail").orElseThrow().settings().concurrency().max(), "nothing changed");
        assertEquals(3, engine().list("mail", null, null, null, 10, null).jobs().size());

        engine().remove("mail", "waits");
        engine().remove("mail", running.job().id());
        assertThrows(TypeInUseException.class, () -> engine().deleteType("mail"),
                "a finished job kept by retention is a job of the type");
        engine().remove("mail", "done");
        assertTrue(engine().deleteType("mail"));
    }

    @Test
    default void anUnknownTypeIsNotDeletedAndABadNameIsRefused() {
        assertFalse(engine().deleteType("never-used"));
        engine().pause("paused-ahead", true);
        assertTrue(engine().deleteType("paused-ahead"), "a type registered by a pause alone has no job");
        assertFalse(engine().deleteType("paused-ahead"), "a deleted type is unknown");
        assertEquals("type", assertThrows(InvalidJobRequestException.class, () -> engine().deleteType("bad/name")).field());
    }

    /**
     * An accept blocked on a type on another replica waits on through the type's deletion and gets
     * its next job, woken through the store by the type's ready-watch counter (a job made here
     * would be handed to a waiter here directly, which would not show it).
     */
    @Test
    default void anAcceptBlockedOnAnotherReplicaGetsTheDeletedTypesNextJob() throws Exception {
        engine().configureType("later", TypeSettings.DEFAULT);
        Replicas other = new Replicas(store(), 1, EngineOptions.DEFAULT);
        try {
            var waiting = other.waits(0).accept(new AcceptRequest(List.of("later"), 1, null, "w"),
                    Duration.ofSeconds(EVENT_SECONDS)).toCompletableFuture();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(EVENT_SECONDS);
            while (other.waits(0).waitingAccepts() == 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000); // until its round found nothing and it waits on the watch
            }
            assertEquals(1, other.waits(0).waitingAccepts());
            assertTrue(engine().deleteType("later"));
            assertFalse(waiting.isDone(), "a deletion hands out nothing");
            add("later", "j");
            assertEquals("j", waiting.get(EVENT_SECONDS, TimeUnit.SECONDS).get(0).job().id());
        } finally {
            other.stop();
        }
    }

    /**
     * The keys whose tuple names {@code type} second, where every family keyed by type has it; not
     * the ready-watch counter {@code ("w", type)}, which deletion keeps on purpose (accepts watch it).
     */
    private List<String> keysOf(String type) {
        return new TransactionRunner(store(), RetryPolicy.DEFAULT).run(tx -> tx.getRange(new byte[] {0x00},
                new byte[] {(byte) 0xFF}, 0).stream().map(KeyValue::key).map(Tuple::fromBytes)
                .filter(key -> key.size() > 1 && type.equals(key.get(1)) && !"w".equals(key.get(0)))
                .map(Tuple::toString).toList());
    }
}
