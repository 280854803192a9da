package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.GroupCounts;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobNotFoundException;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.RateLimit;
import io.jobfoundry.jobs.records.SlotKeys;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.FaultInjectingStore;
import io.jobfoundry.kv.KvStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded random adds, accepts (blocking or not), finishes, heartbeats, removes, cancels and
 * changes of the type's concurrency limits from many threads through two engines on one store,
 * as two replicas would run. A {@link RunningLedger} under the store keeps what every commit added
 * to the running counters; replayed in commit order, no commit that starts a job may leave more
 * running than the limits in force at that commit, type-wide or in a group. Afterwards the slots
 * held agree with the jobs running: none leaked, none lost.
 */
public abstract class LimitConcurrencyContract {

    private static final String TYPE = "limited";
    private static final int THREADS = 8;
    private static final int OPERATIONS = 400;
    private static final int IDS = 40;
    private static final int GROUPS = 4;
    private static final int REPLICAS = 2;
    private static final Integer[] MAXES = {2, 3, 5, null};
    private static final Integer[] PER_GROUP = {1, 2, null};

    @TempDir
    Path folder;

    protected abstract KvStore openStore(Path folder) throws Exception;

    protected void discardStore(KvStore store) throws Exception {
        store.close();
    }

    protected EngineOptions options() {
        return EngineOptions.DEFAULT;
    }

    private static String groupOf(int id) {
        return "g" + id % GROUPS; // fixed per job: the ledger counts a group's runs where they started
    }

    @ParameterizedTest(name = "faults: {0}")
    @ValueSource(doubles = {0.0, 0.1})
    void noCommitStartsAJobPastALimit(double faults) throws Exception {
        long seed = Long.getLong("limits.seed", System.nanoTime());
        System.out.println(getClass().getSimpleName() + " seed " + seed + " (replay with -Dlimits.seed=" + seed + ")");
        KvStore opened = openStore(folder);
        RunningLedger ledger = new RunningLedger(opened, TYPE);
        KvStore store = faults > 0 ? new FaultInjectingStore(ledger, faults, FaultInjectingStore.Mode.BOTH, seed) : ledger;
        try {
            Replicas replicas = new Replicas(store, REPLICAS, options());
            replicas.engine(0).configureType(TYPE, s -> s.withLimits(new Concurrency(3, 1), null));
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Random random = new Random(seed + t);
                JobEngine engine = replicas.engine(t);
                JobWaits waits = replicas.waits(t);
                futures.add(pool.submit(() -> {
                    List<LeasedJob> held = new ArrayList<>();
                    for (int i = 0; i < OPERATIONS; i++) {
                        int n = random.nextInt(IDS);
                        String id = "job-" + n;
                        try {
                            switch (random.nextInt(40)) {
                                case 0, 1, 2, 3, 20, 21, 22, 23, 24, 25 -> engine.put(TYPE, id, JobChanges.NONE.withGroup(groupOf(n)));
                                case 4, 5, 6, 7, 26, 27, 28, 29, 30, 31 -> {
                                    AcceptRequest request = new AcceptRequest(List.of(TYPE), 1 + random.nextInt(3), null, null);
                                    held.addAll(random.nextBoolean() ? engine.accept(request)
                                            : Futures.join(waits.accept(request, Duration.ofMillis(random.nextInt(30)))
                                                    .toCompletableFuture()));
                                }
                                case 8, 9, 10, 11, 12, 32, 33, 34, 35, 36 -> {
                                    if (!held.isEmpty()) {
                                        LeasedJob leased = held.remove(random.nextInt(held.size()));
                                        engine.finish(TYPE, leased.job().id(), leased.lease(), random.nextBoolean(),
                                                Change.keep(), "random failure");
                                    }
                                }
                                case 13, 14, 37 -> {
                                    if (!held.isEmpty()) {
                                        LeasedJob leased = held.get(random.nextInt(held.size()));
                                        engine.heartbeat(TYPE, leased.job().id(), leased.lease(), Change.keep());
                                    }
                                }
                                case 15 -> engine.remove(TYPE, id);
                                case 16 -> engine.cancel(TYPE, id);
                                case 17 -> engine.configureType(TYPE, s -> s.withLimits(new Concurrency(
                                        MAXES[random.nextInt(MAXES.length)], PER_GROUP[random.nextInt(PER_GROUP.length)]),
                                        null));
                                case 18 -> {
                                    if (!held.isEmpty()) { // a processor that went away: its job stays running
                                        held.remove(random.nextInt(held.size()));
                                    }
                                }
                                default -> { // a processor at work
                                }
                            }
                        } catch (HaltException | JobNotFoundException expected) {
                            // Another thread removed, cancelled or re-leased the job: the processor stops.
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(5, TimeUnit.MINUTES);
            }
            pool.shutdown();
            assertTrue(replicas.stop());

            RunningLedger.Verdict verdict = ledger.check();
            System.out.println(getClass().getSimpleName() + ": " + verdict);
            assertNull(verdict.violation(), verdict.violation());
            JobEngine engine = replicas.engine(0);
            long running = engine.type(TYPE).orElseThrow().counts().running();
            assertEquals(running, verdict.finalRunning(), "the ledger saw every commit that moved the counter");
            assertTrue(verdict.commits() > 0);

            // Limits set now hand every running job its permits: as many slots as jobs run, per group too.
            engine.configureType(TYPE, s -> s.withLimits(new Concurrency(Concurrency.MAX_LIMIT, Concurrency.MAX_LIMIT), null));
            SlotKeys.LimitSlots ofType = SlotKeys.typeSlots(TYPE);
            long typeSlots = opened.runOnce(tx -> (long) tx.getRange(ofType.begin(), ofType.end(), 0).size(),
                    Duration.ofSeconds(30));
            assertEquals(running, typeSlots, "type slots held, against jobs running");
            for (GroupCounts group : engine.groups(TYPE, 1000, null).orElseThrow().groups()) {
                SlotKeys.LimitSlots ofGroup = SlotKeys.groupSlots(TYPE, group.group());
                long groupSlots = opened.runOnce(tx -> (long) tx.getRange(ofGroup.begin(), ofGroup.end(), 0).size(),
                        Duration.ofSeconds(30));
                assertEquals(group.running(), groupSlots, "slots held in group " + group.group());
            }
        } finally {
            discardStore(opened);
        }
    }

    /**
     * A rate limit across replicas: workers on both take jobs as fast as the limit lets them for a
     * few seconds, blocked accepts woken by the replica's rate timer; no window of the limit's
     * length may hold more starts than its count, and the limit must not hold back more than that.
     */
    @org.junit.jupiter.api.Test
    void aRateLimitHoldsAcrossReplicas() throws Exception {
        KvStore store = openStore(folder);
        Replicas replicas = new Replicas(store, REPLICAS, options());
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            int count = 5;
            Duration window = Duration.ofSeconds(1);
            replicas.engine(0).configureType("rated", s -> s.withLimits(Concurrency.NONE, new RateLimit(count, window, false)));
            for (int i = 0; i < 100; i++) {
                replicas.engine(i).create("rated", JobChanges.NONE);
            }
            List<java.time.Instant> starts = java.util.Collections.synchronizedList(new ArrayList<>());
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3_500);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                JobEngine engine = replicas.engine(t);
                JobWaits waits = replicas.waits(t);
                AcceptRequest request = new AcceptRequest(List.of("rated"), 1 + t % 3, null, null);
                futures.add(pool.submit(() -> {
                    while (System.nanoTime() < end) {
                        for (LeasedJob leased : Futures.join(waits.accept(request, Duration.ofMillis(300)).toCompletableFuture())) {
                            starts.add(leased.job().startedAt());
                            engine.finish("rated", leased.job().id(), leased.lease(), true, Change.keep(), null);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(5, TimeUnit.MINUTES);
            }
            assertTrue(replicas.stop());
            List<java.time.Instant> sorted = new ArrayList<>(starts);
            sorted.sort(null);
            for (int i = 0; i < sorted.size(); i++) {
                java.time.Instant from = sorted.get(i);
                long inWindow = sorted.stream().filter(at -> !at.isBefore(from) && at.isBefore(from.plus(window))).count();
                assertTrue(inWindow <= count, inWindow + " starts in the window from " + from + ": " + sorted);
            }
            // 3.5 s of demand under 5 a second: at least three full windows' worth, else the limit starves.
            assertTrue(sorted.size() >= 3 * count, sorted.size() + " starts in 3.5 s");
        } finally {
            pool.shutdownNow();
            replicas.abort();
            discardStore(store);
        }
    }
}
