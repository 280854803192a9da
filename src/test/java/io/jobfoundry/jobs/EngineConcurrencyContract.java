package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobNotFoundException;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.TypeInUseException;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.FaultInjectingStore;
import io.jobfoundry.kv.KvStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded random operations from many threads (fdb-record-layer's queue concurrency test), through
 * two engines on one store, as two replicas would run. Whatever the interleaving: no job is ever
 * held under two valid leases, every job added and not removed is still there, and the counters
 * agree with the records. On FoundationDB transactions really run at once, so this is where a
 * missing read conflict would show; the embedded store runs them one after another.
 */
public abstract class EngineConcurrencyContract {

    private static final String TYPE = "chaos";
    private static final int THREADS = 8;
    private static final int OPERATIONS = 250;
    private static final int IDS = 40;
    private static final int REPLICAS = 2;

    @TempDir
    Path folder;

    protected abstract KvStore openStore(Path folder) throws Exception;

    /** Clears what the test wrote, where the store outlives it, and closes the store. */
    protected void discardStore(KvStore store) throws Exception {
        store.close();
    }

    /** The engine's options, as the service sets them for this store. */
    protected EngineOptions options() {
        return EngineOptions.DEFAULT;
    }

    @ParameterizedTest(name = "faults: {0}")
    @ValueSource(doubles = {0.0, 0.1})
    void noJobIsHeldTwiceAndNoneIsLost(double faults) throws Exception {
        long seed = Long.getLong("chaos.seed", System.nanoTime());
        System.out.println(getClass().getSimpleName() + " seed " + seed + " (replay with -Dchaos.seed=" + seed + ")");
        KvStore opened = openStore(folder);
        KvStore store = faults > 0 ? new FaultInjectingStore(opened, faults, FaultInjectingStore.Mode.BOTH, seed) : opened;
        try {
            // Blocked accepts and the adds that hand jobs straight to them race with everything else.
            Replicas replicas = new Replicas(store, REPLICAS, options());
            Set<String> leasesSeen = ConcurrentHashMap.newKeySet();
            Map<String, List<String>> leasesByJob = new ConcurrentHashMap<>();
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Random random = new Random(seed + t);
                JobEngine engine = replicas.engine(t);
                JobWaits waits = replicas.waits(t);
                futures.add(pool.submit(() -> {
                    List<LeasedJob> held = new ArrayList<>();
                    for (int i = 0; i < OPERATIONS; i++) {
                        String id = "job-" + random.nextInt(IDS);
                        try {
                            switch (random.nextInt(7)) {
                                case 0 -> engine.put(TYPE, id, JobChanges.NONE.withData("{\"i\":" + i + "}"));
                                case 1 -> Futures.join(engine.putAsync(TYPE, id, JobChanges.NONE.withData("{\"i\":" + i + "}")));
                                case 2 -> {
                                    AcceptRequest request = new AcceptRequest(List.of(TYPE), 1 + random.nextInt(3), null, null);
                                    List<LeasedJob> accepted = random.nextBoolean() ? engine.accept(request)
                                            : Futures.join(waits.accept(request, Duration.ofMillis(random.nextInt(20)))
                                                    .toCompletableFuture());
                                    for (LeasedJob leased : accepted) {
                                        assertTrue(leasesSeen.add(leased.lease()), "a lease was handed out twice");
                                        leasesByJob.computeIfAbsent(leased.job().id(), k -> new ArrayList<>()).add(leased.lease());
                                        held.add(leased);
                                    }
                                }
                                case 3 -> {
                                    if (!held.isEmpty()) {
                                        LeasedJob leased = held.get(random.nextInt(held.size()));
                                        engine.heartbeat(TYPE, leased.job().id(), leased.lease(), Change.keep());
                                    }
                                }
                                case 4 -> {
                                    if (!held.isEmpty()) {
                                        LeasedJob leased = held.remove(random.nextInt(held.size()));
                                        engine.finish(TYPE, leased.job().id(), leased.lease(), random.nextBoolean(),
                                                Change.keep(), "random failure");
                                    }
                                }
                                case 5 -> engine.remove(TYPE, id);
                                default -> engine.cancel(TYPE, id);
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

            JobEngine engine = replicas.engine(0);

            for (Job job : engine.list(TYPE, null, null, null, 1000, null).jobs()) {
                int valid = 0;
                for (String lease : leasesByJob.getOrDefault(job.id(), List.of())) {
                    try {
                        engine.heartbeat(TYPE, job.id(), lease, Change.keep());
                        valid++;
                    } catch (HaltException halted) {
                        // An old lease, or a cancel this heartbeat just carried out: dead, as it must be.
                    }
                }
                assertTrue(valid <= 1, job.id() + " is held by " + valid + " valid leases");
            }
            // Tally after the heartbeats above: they end jobs whose cancel was pending.
            Map<JobState, Integer> byState = new HashMap<>();
            Map<JobResult, Integer> byResult = new HashMap<>();
            for (Job job : engine.list(TYPE, null, null, null, 1000, null).jobs()) {
                byState.merge(job.state(), 1, Integer::sum);
                if (job.result() != null) {
                    byResult.merge(job.result(), 1, Integer::sum);
                }
            }
            Counts counts = engine.type(TYPE).orElseThrow().counts();
            assertEquals(byState.getOrDefault(JobState.PENDING, 0).longValue(), counts.pending(), "pending count");
            assertEquals(byState.getOrDefault(JobState.RUNNING, 0).longValue(), counts.running(), "running count");
            assertEquals(byResult.getOrDefault(JobResult.SUCCEEDED, 0).longValue(), counts.succeeded(), "succeeded count");
            assertEquals(byResult.getOrDefault(JobResult.FAILED, 0).longValue(), counts.failed(), "failed count");
            assertEquals(byResult.getOrDefault(JobResult.CANCELLED, 0).longValue(), counts.cancelled(), "cancelled count");
            long due = engine.list(TYPE, JobState.PENDING, null, null, 1000, null).jobs().stream()
                    .filter(j -> !j.scheduledAt().isAfter(Clock.systemUTC().instant())).count();
            assertTrue(counts.due() <= counts.pending() && counts.due() >= 0, "due within pending");
            assertTrue(due >= counts.due(), "every ready job is due");
        } finally {
            discardStore(opened);
        }
    }

    /**
     * Blocked accepts on every replica while producers keep adding to the same group: each job
     * that arrives is taken at once, leaving its group empty for the next. On FoundationDB an
     * accept that took the group's last job and then cleared the group's marker, with a read
     * conflict on the group's ready keys, conflicted with every create landing meanwhile and
     * retried until its attempts ran out (503s under a steady 100 jobs/s, found by bench/load.sh
     * latency on a real cluster). Every job must be handed out exactly once and no call may fail.
     */
    @Test
    void blockedAcceptsKeepUpWithASteadyStreamOfCreatesIntoOneGroup() throws Exception {
        KvStore opened = openStore(folder);
        ConflictCounting store = new ConflictCounting(opened);
        Replicas replicas = new Replicas(store, REPLICAS, options());
        ExecutorService pool = Executors.newFixedThreadPool(20);
        try {
            int jobs = 1_500;
            Set<String> created = ConcurrentHashMap.newKeySet();
            Map<String, Integer> handedOut = new ConcurrentHashMap<>();
            List<Future<?>> futures = new ArrayList<>();
            for (int p = 0; p < 4; p++) {
                JobEngine engine = replicas.engine(p);
                futures.add(pool.submit(() -> {
                    // Paced (open loop, 4 x 200/s) so the accepts outrun the creates and keep emptying the group.
                    long next = System.nanoTime();
                    for (int i = 0; i < jobs / 4; i++) {
                        next += TimeUnit.MILLISECONDS.toNanos(5);
                        java.util.concurrent.locks.LockSupport.parkNanos(next - System.nanoTime());
                        created.add(engine.create("stream", JobChanges.NONE).job().id());
                    }
                    return null;
                }));
            }
            for (int w = 0; w < 16; w++) {
                JobEngine engine = replicas.engine(w);
                JobWaits waits = replicas.waits(w);
                futures.add(pool.submit(() -> {
                    AcceptRequest request = new AcceptRequest(List.of("stream"), 1, null, null);
                    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                    while (handedOut.size() < jobs && System.nanoTime() < deadline) {
                        for (LeasedJob leased : Futures.join(waits.accept(request, Duration.ofMillis(200)).toCompletableFuture())) {
                            handedOut.merge(leased.job().id(), 1, Integer::sum);
                            engine.finish("stream", leased.job().id(), leased.lease(), true, Change.keep(), null);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get(5, TimeUnit.MINUTES); // a RetriesExhaustedException surfaces here
            }
            assertEquals(created, handedOut.keySet());
            handedOut.forEach((id, times) -> assertEquals(1, times, id + " was handed out " + times + " times"));
            assertEquals(jobs, replicas.engine(0).type("stream").orElseThrow().counts().succeeded());
            assertTrue(replicas.stop());
            // A job costs a create, a hand-off or a round, and a finish: only the two replicas'
            // rounds may still meet over one job.
            System.out.println(getClass().getSimpleName() + ": " + store.conflicts + " conflicts in " + store.attempts
                    + " attempts for " + jobs + " jobs");
            assertTrue(store.conflicts.get() < jobs / 10, store.conflicts + " conflicts for " + jobs + " jobs");
        } finally {
            pool.shutdownNow();
            replicas.abort();
            discardStore(opened);
        }
    }

    /**
     * A type deleted over and over while jobs of it come and go on every replica: whichever
     * transaction commits first, a job is never left without its type nor taken by the deletion,
     * and the counters agree with the records afterwards.
     */
    @Test
    void aTypeDeletedWhileItsJobsComeAndGoKeepsEveryJobAndItsType() throws Exception {
        KvStore opened = openStore(folder);
        Replicas replicas = new Replicas(opened, REPLICAS, options());
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            AtomicInteger deletions = new AtomicInteger();
            List<Future<?>> futures = new ArrayList<>();
            // Few producers, so that the type is often empty for a moment and deletions go through.
            int producers = 3;
            for (int t = 0; t < producers; t++) {
                JobEngine engine = replicas.engine(t);
                String thread = "t" + t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        engine.put("fleeting", thread + "-" + i, JobChanges.NONE);
                        assertTrue(engine.type("fleeting").isPresent(), "a type with a job was deleted");
                        engine.remove("fleeting", thread + "-" + i);
                    }
                    engine.put("fleeting", thread + "-kept", JobChanges.NONE);
                    return null;
                }));
            }
            JobEngine deleter = replicas.engine(producers);
            List<Future<?>> producing = List.copyOf(futures);
            futures.add(pool.submit(() -> {
                while (!producing.stream().allMatch(Future::isDone)) {
                    try {
                        if (deleter.deleteType("fleeting")) {
                            deletions.incrementAndGet();
                        }
                    } catch (TypeInUseException inUse) {
                        // A job of the type was there: the deletion changed nothing.
                    }
                }
                return null;
            }));
            for (Future<?> future : futures) {
                future.get(5, TimeUnit.MINUTES);
            }
            System.out.println(getClass().getSimpleName() + ": the type was deleted " + deletions + " times");
            JobEngine engine = replicas.engine(0);
            List<String> kept = engine.list("fleeting", null, null, null, 100, null).jobs().stream().map(Job::id).toList();
            assertEquals(producers, kept.size(), "jobs left: " + kept);
            assertTrue(kept.stream().allMatch(id -> id.endsWith("-kept")), "jobs left: " + kept);
            Counts counts = engine.type("fleeting").orElseThrow().counts();
            assertEquals(new Counts(producers, producers, 0, 0, 0, 0), counts);
            assertTrue(replicas.stop());
        } finally {
            pool.shutdownNow();
            replicas.abort();
            discardStore(opened);
        }
    }

    /** Counts the attempts that failed for a conflict (FoundationDB's not_committed). */
    private static final class ConflictCounting implements KvStore {
        private final KvStore store;
        final java.util.concurrent.atomic.AtomicLong attempts = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicLong conflicts = new java.util.concurrent.atomic.AtomicLong();

        ConflictCounting(KvStore store) {
            this.store = store;
        }

        @Override
        public <T> T runOnce(io.jobfoundry.kv.TransactionBody<T> body, Duration timeout) {
            return runOnce(body, timeout, io.jobfoundry.kv.Sync.ON_COMMIT);
        }

        @Override
        public <T> T runOnce(io.jobfoundry.kv.TransactionBody<T> body, Duration timeout, io.jobfoundry.kv.Sync sync) {
            attempts.incrementAndGet();
            try {
                return store.runOnce(body, timeout, sync);
            } catch (RuntimeException e) {
                count(e);
                throw e;
            }
        }

        @Override
        public <T> java.util.concurrent.CompletableFuture<T> runOnceAsync(io.jobfoundry.kv.TransactionBody<T> body,
                Duration timeout, io.jobfoundry.kv.Sync sync) {
            attempts.incrementAndGet();
            return store.runOnceAsync(body, timeout, sync).whenComplete((value, failure) -> {
                if (failure != null) {
                    count(Futures.cause(failure));
                }
            });
        }

        private void count(Throwable failure) {
            if (failure instanceof io.jobfoundry.kv.RetryableStoreException retryable
                    && retryable.reason() == io.jobfoundry.kv.RetryableStoreException.Reason.CONFLICT) {
                conflicts.incrementAndGet();
            }
        }

        @Override
        public String describe() {
            return store.describe();
        }

        @Override
        public void close() {
            store.close();
        }
    }
}
