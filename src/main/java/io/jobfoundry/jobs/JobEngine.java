package io.jobfoundry.jobs;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.Futures;
import io.jobfoundry.jobs.JobKeys.Counter;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.repeat.Repeat;
import io.jobfoundry.repeat.RepeatRangeException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.logging.Logger;

/**
 * The job engine: couch_jobs' add / remove / accept / update / finish / resubmit, with Bedrock's
 * recurring jobs and docspell's groups, priorities and retries, written once against the kv
 * gateway. Every operation is one transaction run by the {@link TransactionRunner}, and is safe
 * to run again: its time, its nonce and any leases it hands out are drawn before the transaction,
 * and operations whose retry could not tell their own earlier commit from someone else's record
 * enough to recognize it (the nonce of a creation, the lease of a finish, the outcome of an accept).
 */
public final class JobEngine {

    private static final Logger LOG = Logger.getLogger(JobEngine.class);

    /** How long an accept's outcome is kept for its own retries; far beyond any retry loop. */
    static final Duration OUTCOME_RETENTION = Duration.ofMinutes(15);
    private static final int LIST_SCAN_LIMIT = 5_000;

    private final TransactionRunner runner;
    private final Clock clock;
    private final EngineOptions options;
    private final Acceptor acceptor;
    private final JobObserver observer;

    public JobEngine(TransactionRunner runner, Clock clock, EngineOptions options) {
        this(runner, clock, options, JobObserver.NONE);
    }

    public JobEngine(TransactionRunner runner, Clock clock, EngineOptions options, JobObserver observer) {
        this.runner = runner;
        this.clock = clock;
        this.options = options;
        this.acceptor = new Acceptor(options.acceptWindow());
        this.observer = observer;
    }

    public Clock clock() {
        return clock;
    }

    TransactionRunner runner() {
        return runner;
    }

    JobObserver observer() {
        return observer;
    }

    private long now() {
        return Times.micros(clock.instant());
    }

    // ---- creating and managing jobs --------------------------------------------------------------

    /** couch_jobs {@code add} with a generated id. */
    public Added create(String type, JobChanges changes) {
        return put(type, newJobId(), changes);
    }

    /** {@link #create} without blocking; invalid input still throws at once. */
    public CompletableFuture<Added> createAsync(String type, JobChanges changes) {
        return putAsync(type, newJobId(), changes);
    }

    /** A generated id: its creation millisecond, then randomness, so ids list in creation order. */
    String newJobId() {
        return Tokens.jobId(clock.millis());
    }

    /**
     * couch_jobs {@code add}: a new job is pending; a pending one takes the changes; a running one
     * is flagged to run again when it finishes; a finished one is pending again.
     */
    public Added put(String type, String id, JobChanges changes) {
        return Futures.join(putAsync(type, id, changes));
    }

    /** {@link #put} without blocking; invalid input still throws at once. */
    public CompletableFuture<Added> putAsync(String type, String id, JobChanges changes) {
        return putAsync(type, id, changes, (t, at) -> null);
    }

    /** A processor blocked in accept, which a job being added may go to directly (see {@link JobWaits}). */
    interface HandOff {
        AcceptRequest request();

        /** Once the transaction is over: the jobs it took for the request; none if it failed or found none. */
        void settle(List<LeasedJob> jobs);
    }

    /** Where {@link #putAsync(String, String, JobChanges, Waiting)} looks for a blocked accept. */
    @FunctionalInterface
    interface Waiting {
        /** A blocked accept for {@code type}, claimed so that nothing else serves it until settled; or null. */
        HandOff claim(String type, long dueMicros);
    }

    private record AddedAndHanded(Added added, AcceptBatch handed) {
    }

    /**
     * {@link #putAsync(String, String, JobChanges)}, and if the job is due and a processor waits
     * for its type, that processor's accept in the same transaction. The job a worker was waiting
     * for then costs one commit instead of two, and no watch has to fire between them. The accept
     * takes what the {@link Acceptor} chooses, as any accept would, so order and fairness hold.
     */
    CompletableFuture<Added> putAsync(String type, String id, JobChanges changes, Waiting waiting) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        Validated valid = validate(type, id, changes);
        long now = now();
        String nonce = Tokens.next();
        long due = valid.scheduledAt().orElse(now);
        HandOff handOff = due <= now ? waiting.claim(type, due) : null;
        if (handOff == null) {
            return runner.runAsync(tx -> add(tx, type, id, valid, now, nonce, true), Sync.ON_COMMIT);
        }
        AcceptRequest request = handOff.request();
        AcceptAttempt accept = new AcceptAttempt(acceptor, request.types(), request.maxScheduledAt(),
                List.of(new Claim(request.worker(), request.max())), now);
        CompletableFuture<AddedAndHanded> done;
        try {
            done = runner.runAsync(tx -> {
                Added added = add(tx, type, id, valid, now, nonce, false);
                AcceptBatch handed = accept.run(tx, false);
                if (handed.jobs().get(0).stream().noneMatch(leased -> leased.job().id().equals(id))) {
                    // Not taken here (an older job was): if it is ready, the other waiters must hear of it.
                    JobRecord r = JobIndex.load(tx, type, id);
                    if (r != null && r.state == JobState.PENDING && r.due) {
                        JobIndex.announceReady(tx, type);
                    }
                }
                return new AddedAndHanded(added, handed);
            }, Sync.ON_COMMIT);
        } catch (RuntimeException e) {
            handOff.settle(List.of());
            throw e;
        }
        return done.whenComplete((both, failure) -> handOff.settle(
                both == null ? List.of() : accept.committed(both.handed(), observer).jobs().get(0)))
                .thenApply(AddedAndHanded::added);
    }

    /** The body of {@link #put}; a job made ready wakes the waiting accepts only if {@code announce}. */
    private Added add(KvTransaction tx, String type, String id, Validated valid, long now, String nonce,
            boolean announce) {
        TypeSettings settings = TypeRegistry.ensure(tx, type);
        JobRecord r = JobIndex.load(tx, type, id);
        if (r == null) {
            r = newRecord(type, id, valid, settings, now, nonce);
            JobIndex.place(tx, r, now, announce);
            JobIndex.save(tx, r, now);
            return new Added(r.view(), true);
        }
        if (nonce.equals(r.origin)) {
            return new Added(r.view(), true); // our own earlier attempt committed
        }
        switch (r.state) {
            case PENDING -> {
                byte[] before = r.encode();
                apply(r, valid);
                if (Arrays.equals(before, r.encode()) && (r.due || r.scheduledAt > now)) {
                    // The same job again (a client's retried PUT): nothing to write, no event, no
                    // new updatedAt, nobody to wake. (One due but not yet moved to the ready
                    // index is placed again below, as before: that wakes its workers now.)
                    return new Added(r.view(), false);
                }
                JobIndex.unplace(tx, JobRecord.decode(type, id, before));
                r.due = false;
                JobIndex.place(tx, r, now, announce);
            }
            case RUNNING -> {
                // As resubmit: runs again when it finishes, at the given time, in the given group.
                r.resubmit = true;
                applyToRunning(r, valid);
                if (valid.scheduledAt().isPresent()) {
                    scheduleNextRun(r, valid.scheduledAt().get());
                }
                r.group = valid.group().orElse(r.group);
            }
            case FINISHED -> {
                JobIndex.unfinish(tx, r);
                apply(r, valid);
                restart(r, valid.scheduledAt().orElse(now));
                JobIndex.place(tx, r, now, announce);
            }
        }
        JobIndex.save(tx, r, now);
        return new Added(r.view(), false);
    }

    public Optional<Job> get(String type, String id) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        return Optional.ofNullable(runner.run(tx -> {
            JobRecord r = JobIndex.load(tx, type, id);
            return r == null ? null : r.view();
        }));
    }

    /**
     * Jobs of a type in id order, optionally of one state and group. A page may hold fewer than
     * {@code limit} jobs while {@code next} is not null: filters scan at most a bounded number of
     * jobs per call.
     */
    public JobPage list(String type, JobState state, String group, int limit, String cursor) {
        TypeNames.checkType(type);
        if (limit < 1 || limit > 1000) {
            throw new InvalidJobRequestException("limit", "limit must be within 1..1000");
        }
        String after = cursor == null ? null : decodeCursor(cursor);
        return runner.run(tx -> {
            List<Job> jobs = new ArrayList<>();
            byte[] from = after == null ? JobKeys.jobsBegin(type) : JobKeys.jobsAfter(type, after);
            String lastSeen = null;
            int scanned = 0;
            while (jobs.size() < limit && scanned < LIST_SCAN_LIMIT) {
                List<KeyValue> chunk = tx.getRange(from, JobKeys.jobsEnd(type), Math.min(limit + 1, 500));
                for (KeyValue kv : chunk) {
                    String id = Tuple.fromBytes(kv.key()).getString(2);
                    if (jobs.size() == limit) {
                        return new JobPage(jobs, encodeCursor(lastSeen));
                    }
                    scanned++;
                    lastSeen = id;
                    JobRecord r = JobRecord.decode(type, id, kv.value());
                    if ((state == null || r.state == state) && (group == null || group.equals(r.group))) {
                        jobs.add(r.view());
                    }
                }
                if (chunk.size() < Math.min(limit + 1, 500)) {
                    return new JobPage(jobs, null);
                }
                from = JobKeys.jobsAfter(type, lastSeen);
            }
            return new JobPage(jobs, lastSeen == null ? null : encodeCursor(lastSeen));
        });
    }

    /**
     * Changes {@code priority}, {@code repeat} and {@code maxAttempts} of any job; {@code scheduledAt},
     * {@code data} and {@code group} only of a pending one.
     */
    public Job patch(String type, String id, JobChanges changes) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        Validated valid = validate(type, id, changes);
        long now = now();
        return runner.run(tx -> {
            JobRecord r = require(tx, type, id);
            boolean pendingOnly = changes.data().given() || changes.scheduledAt().given() || changes.group().given();
            if (pendingOnly && r.state != JobState.PENDING) {
                throw new JobConflictException("data, scheduledAt and group change only while the job is pending",
                        type, id, r.state);
            }
            if (r.state == JobState.PENDING) {
                JobIndex.unplace(tx, r);
                apply(r, valid);
                JobIndex.place(tx, r, now);
            } else {
                applyToRunning(r, valid);
            }
            JobIndex.save(tx, r, now);
            return r.view();
        });
    }

    /** Removes every trace of the job; a processor running it is told {@code removed}. */
    public void remove(String type, String id) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        long now = now();
        String nonce = Tokens.next();
        runner.run(tx -> {
            byte[] outcome = JobKeys.outcome(now, nonce);
            if (tx.get(outcome) != null) {
                return null; // our own earlier attempt removed it
            }
            JobRecord r = require(tx, type, id);
            JobIndex.detach(tx, r);
            tx.clear(JobKeys.job(type, id));
            tx.set(outcome, new byte[0]);
            return null;
        });
    }

    /**
     * Pending: finished and {@code cancelled} at once. Running: the processor's next call is told
     * {@code cancelled} and the job ends so (or when its activity times out), unless it is added or
     * resubmitted (by a client) after the cancel: then it is pending again. Finished: unchanged.
     */
    public Job cancel(String type, String id) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        long now = now();
        return runner.run(tx -> {
            JobRecord r = require(tx, type, id);
            switch (r.state) {
                case PENDING -> {
                    JobIndex.unplace(tx, r);
                    JobIndex.finish(tx, r, JobResult.CANCELLED, now);
                    r.resubmit = false;
                    r.runScheduledAt = null;
                }
                case RUNNING -> {
                    if (r.cancelRequested && !r.resubmit) {
                        return r.view();
                    }
                    r.cancelRequested = true;
                    r.resubmit = false; // the latest word wins: a resubmit before the cancel is off
                }
                case FINISHED -> {
                    return r.view();
                }
            }
            JobIndex.save(tx, r, now);
            return r.view();
        });
    }

    /**
     * couch_jobs {@code resubmit}: a pending job moves to {@code scheduledAt}; a running one runs
     * again after it finishes; a finished one is pending again. A processor passes its lease.
     */
    public Job resubmit(String type, String id, Instant scheduledAt, String lease) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        long now = now();
        Long at = scheduledAt == null ? null : Times.micros(scheduledAt);
        return runner.run(tx -> {
            JobRecord r = lease == null ? require(tx, type, id) : requireLease(tx, type, id, lease);
            if (lease != null && r.cancelRequested) {
                return endCancelled(tx, r, now); // a processor's call: it hears of the cancel, as any would
            }
            switch (r.state) {
                case PENDING -> {
                    if (at == null) {
                        return new Step(r.view(), null);
                    }
                    JobIndex.unplace(tx, r);
                    rescheduleRun(r, at);
                    JobIndex.place(tx, r, now);
                }
                case RUNNING -> {
                    r.resubmit = true;
                    if (at != null) {
                        scheduleNextRun(r, at);
                    }
                }
                case FINISHED -> {
                    JobIndex.unfinish(tx, r);
                    restart(r, at == null ? now : at);
                    JobIndex.place(tx, r, now);
                }
            }
            JobIndex.save(tx, r, now);
            return new Step(r.view(), null);
        }).orHalt(type, id);
    }

    // ---- processing jobs -----------------------------------------------------------------------

    /** Takes up to {@code max} due jobs of the requested types, each under a fresh lease. */
    public List<LeasedJob> accept(AcceptRequest request) {
        return Futures.join(acceptAsync(request));
    }

    /** {@link #accept} without blocking. */
    public CompletableFuture<List<LeasedJob>> acceptAsync(AcceptRequest request) {
        return acceptForAsync(request.types(), request.maxScheduledAt(),
                List.of(new Claim(request.worker(), request.max())), false).thenApply(batch -> batch.jobs().get(0));
    }

    /** One processor's share of a batched accept. */
    record Claim(String worker, int max) {
    }

    /**
     * Jobs for each claim (in order), and what the claims still short wait on: with {@code watch},
     * the ready counters of these types as the transaction that found too few read them, to be
     * armed once it has committed ({@link ReadyWatch#arm}), so no job can slip in between unnoticed
     * (couch_jobs); {@link ReadyWatch#NONE} otherwise.
     */
    record AcceptBatch(List<List<LeasedJob>> jobs, ReadyWatch wake) {
    }

    /** Serves several processors that ask for the same types in one transaction (the dispatcher's batch). */
    CompletableFuture<AcceptBatch> acceptForAsync(List<String> patterns, Instant maxScheduledAt,
            List<Claim> claims, boolean watch) {
        AcceptAttempt accept = new AcceptAttempt(acceptor, patterns, maxScheduledAt, claims, now());
        // DEFERRABLE: a lease lost with an unflushed commit only makes its holder's next call halt.
        return runner.runAsync(tx -> accept.run(tx, watch), Sync.DEFERRABLE)
                .thenApply(batch -> accept.committed(batch, observer));
    }

    /** Hands a job taken for a processor that is gone (its wait ended) back to the queue, unchanged. */
    void release(LeasedJob leased) {
        Job job = leased.job();
        long now = now();
        runner.run(tx -> {
            JobRecord r = JobIndex.load(tx, job.type(), job.id());
            if (r == null || !leased.lease().equals(r.lease)) {
                return null;
            }
            JobIndex.stopRunning(tx, r);
            r.startedAt = null;
            JobIndex.place(tx, r, now);
            JobIndex.save(tx, r, now);
            return null;
        });
    }

    /** A job as it is now, and a watch that fires when it next changes (or is removed). */
    record Observation(Job job, CompletableFuture<Void> change) {
    }

    Observation observe(String type, String id) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        return runner.run(tx -> {
            JobRecord r = JobIndex.load(tx, type, id);
            return new Observation(r == null ? null : r.view(), tx.watch(JobKeys.job(type, id)));
        });
    }

    /** couch_jobs {@code update}: renews the activity timeout and optionally replaces the data. */
    public Job heartbeat(String type, String id, String lease, Change<String> data) {
        return Futures.join(heartbeatAsync(type, id, lease, data));
    }

    /** {@link #heartbeat} without blocking; invalid input still throws at once. */
    public CompletableFuture<Job> heartbeatAsync(String type, String id, String lease, Change<String> data) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        requireLeaseGiven(lease);
        checkData(type, id, data);
        long now = now();
        return runner.runAsync(tx -> {
            JobRecord r = requireLease(tx, type, id, lease);
            if (r.cancelRequested) {
                return endCancelled(tx, r, now);
            }
            r.data = data.orElse(r.data);
            JobIndex.recordActivity(tx, r, now, 0);
            return new Step(r.view(), null);
        }, Sync.DEFERRABLE) // a heartbeat lost to a power failure is a late heartbeat
                .thenApply(step -> step.orHalt(type, id));
    }

    /**
     * Ends a run. Succeeded: finished, unless a resubmit or the repeat puts it back to pending with
     * the data given here. Failed: pending again after the backoff while attempts remain, else
     * finished {@code failed} (a repeating job goes on to its next run).
     */
    public Job finish(String type, String id, String lease, boolean succeeded, Change<String> data, String error) {
        return Futures.join(finishAsync(type, id, lease, succeeded, data, error));
    }

    /** {@link #finish} without blocking; invalid input still throws at once. */
    public CompletableFuture<Job> finishAsync(String type, String id, String lease, boolean succeeded,
            Change<String> data, String error) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        requireLeaseGiven(lease);
        checkData(type, id, data);
        String lastError = error == null ? null : truncate(error, 4096);
        long now = now();
        String nonce = Tokens.next();
        double jitter = ThreadLocalRandom.current().nextDouble();
        long[] startedAt = new long[1];
        String[] seriesEnd = new String[1];
        return runner.runAsync(tx -> {
            startedAt[0] = -1;
            seriesEnd[0] = null;
            JobRecord r = JobIndex.load(tx, type, id);
            JobResult outcome = succeeded ? JobResult.SUCCEEDED : JobResult.FAILED;
            if (r != null && lease.equals(r.finishedLease) && (nonce.equals(r.finishedBy)
                    || ((r.finishedAs == null || r.finishedAs == outcome) && r.state != JobState.RUNNING))) {
                // This call's own earlier attempt ended the run (its commit result was unknown),
                // even if the job has run again since (its answer may then show it running); or a
                // worker repeats its finish, which is answered alike until the job runs again
                // under another lease: then the spent one is lost. (Once another run has ended
                // too, the lease is another's finished one, and even the call's own retry is lost.)
                if (nonce.equals(r.finishedBy) && r.repeat != null && r.state == JobState.FINISHED
                        && r.result != JobResult.CANCELLED) {
                    seriesEnd[0] = r.lastError; // this call's own attempt ended the series, unlogged
                }
                return new Step(r.view(), null);
            }
            checkLease(r, type, id, lease);
            if (r.cancelRequested) {
                return endCancelled(tx, r, now);
            }
            startedAt[0] = r.startedAt == null ? now : r.startedAt;
            JobIndex.stopRunning(tx, r);
            r.finishedLease = lease;
            r.finishedAs = outcome;
            r.finishedBy = nonce;
            r.data = data.orElse(r.data);
            r.finishedAt = now;
            if (succeeded) {
                r.lastError = null;
                completeRun(tx, r, now);
            } else {
                r.attempt++;
                r.lastError = lastError;
                if (r.attempt < r.maxAttempts) {
                    // Only a failure needs the type's settings (its backoff): no read on success.
                    retryLater(tx, r, TypeRegistry.ensure(tx, type), now, jitter);
                } else {
                    exhausted(tx, r, now);
                }
            }
            JobIndex.save(tx, r, now);
            seriesEnd[0] = r.seriesEnd;
            return new Step(r.view(), null);
        }, Sync.ON_COMMIT).thenApply(step -> {
            logSeriesEnd(type, id, seriesEnd[0]);
            if (startedAt[0] >= 0) {
                try {
                    observer.finished(type, succeeded, Times.elapsedForMetrics(startedAt[0], now));
                } catch (RuntimeException e) {
                    LOG.error("reporting a finish to the metrics failed; the finish stands", e); // it committed
                }
            }
            return step.orHalt(type, id);
        });
    }

    /** A run that ended well: again if resubmitted or repeating, else finished. */
    private static void completeRun(KvTransaction tx, JobRecord r, long now) {
        long scheduled = endRun(r);
        if (r.resubmit) {
            r.resubmit = false;
            r.scheduledAt = scheduled;
            JobIndex.place(tx, r, now);
        } else if (r.repeat != null && repeatsAgain(r, scheduled, now)) {
            JobIndex.place(tx, r, now);
        } else {
            JobIndex.finish(tx, r, JobResult.SUCCEEDED, now);
        }
    }

    private static void retryLater(KvTransaction tx, JobRecord r, TypeSettings settings, long now, double jitter) {
        long backoff = settings.backoff(r.attempt).toNanos() / 1_000;
        // Equal jitter: at least half the backoff, so retries spread out yet still back off.
        retryAt(r, now + backoff / 2 + (long) (jitter * (backoff - backoff / 2)));
        JobIndex.place(tx, r, now);
    }

    /** Due again at {@code at} as a retry; the run keeps the time it was scheduled for. */
    private static void retryAt(JobRecord r, long at) {
        if (r.runScheduledAt == null) {
            r.runScheduledAt = r.scheduledAt;
        }
        r.scheduledAt = at;
        r.retry = true;
    }

    /** A client's time for a pending job: its run is due then, a retry's or not. */
    private static void rescheduleRun(JobRecord r, long at) {
        r.scheduledAt = at;
        r.runScheduledAt = null;
    }

    /** A resubmit's time for a running job's next run, which a retry of this one must not take. */
    private static void scheduleNextRun(JobRecord r, long at) {
        if (r.runScheduledAt != null) {
            r.runScheduledAt = at;
        } else {
            r.scheduledAt = at;
        }
    }

    /** When the run was scheduled, a retry's or not. */
    private static long runScheduledAt(JobRecord r) {
        return r.runScheduledAt != null ? r.runScheduledAt : r.scheduledAt;
    }

    /** The run's attempts are over: answers when it was scheduled, for what comes next. */
    private static long endRun(JobRecord r) {
        long scheduled = runScheduledAt(r);
        r.runScheduledAt = null;
        r.attempt = 0;
        r.retry = false;
        return scheduled;
    }

    /** Attempts are used up: the run failed; a repeating job still moves on to its next run. */
    private static void exhausted(KvTransaction tx, JobRecord r, long now) {
        if (r.resubmit) {
            r.resubmit = false;
            r.scheduledAt = endRun(r);
            JobIndex.place(tx, r, now);
        } else if (r.repeat != null && repeatsAgain(r, runScheduledAt(r), now)) {
            endRun(r);
            JobIndex.place(tx, r, now);
        } else {
            r.retry = false;
            r.runScheduledAt = null;
            JobIndex.finish(tx, r, JobResult.FAILED, now); // its attempts stay visible
        }
    }

    /**
     * Schedules a repeating job's next run; or, when its repeat is over, answers false and says
     * why in {@code lastError}, and the job ends with this run. A repeat is over when it gives no
     * time within the years 0000–9999, or no time after the one it counts from: checked where a
     * repeat comes in, but by samples, and a repeat stored before that check is not re-checked.
     * Either would otherwise fail every finish of the job (a 400 for a valid request) and every
     * activity check, or run it back to back for good.
     */
    private static boolean repeatsAgain(JobRecord r, long scheduled, long now) {
        Repeat repeat = Repeat.parse(r.repeat);
        Instant due = Times.instant(scheduled);
        Instant finished = Times.instant(now);
        Instant started = r.startedAt == null ? finished : Times.instant(r.startedAt);
        String over;
        try {
            Instant next = repeat.next(due, started, finished);
            Instant from = repeat.from(due, started, finished);
            if (next.isAfter(from)) {
                r.scheduledAt = Times.micros(next);
                return true;
            }
            over = "repeat '" + r.repeat + "' from " + from + " gives " + next + ", not a later time";
        } catch (RepeatRangeException e) {
            over = e.detail();
        }
        over += ": the job repeats no more";
        r.seriesEnd = over;
        r.lastError = truncate(r.lastError == null ? over : r.lastError + "; then " + over, 4096);
        return false;
    }

    /** Logs, once its transaction has committed, that a change ended a job's series ({@link JobRecord#seriesEnd}). */
    static void logSeriesEnd(String type, String id, String why) {
        if (why != null) {
            LOG.warnf("job %s of type %s: %s", id, type, why);
        }
    }

    /** The activity monitor's move: a running job whose processor went quiet. */
    static void reenqueueStale(KvTransaction tx, JobRecord r, TypeSettings settings, long now) {
        if (r.cancelRequested) {
            endCancelled(tx, r, now);
            return;
        }
        JobIndex.stopRunning(tx, r);
        r.attempt++;
        r.lastError = "activity timeout: no heartbeat or finish within "
                + TypeSettings.seconds(settings.activityTimeout()).toPlainString() + " s";
        if (r.attempt < r.maxAttempts) {
            // The processor vanished, not the job: it may run again at once.
            retryAt(r, now);
            JobIndex.place(tx, r, now);
        } else {
            r.finishedAt = now;
            exhausted(tx, r, now);
        }
        JobIndex.save(tx, r, now);
    }

    /**
     * The processor of a job cancelled while it ran is told to stop. The job ends cancelled,
     * unless it was added or resubmitted after the cancel: that next run is still owed.
     */
    private static Step endCancelled(KvTransaction tx, JobRecord r, long now) {
        r.finishedLease = r.lease;
        r.finishedBy = null; // no finish call ended this run
        r.finishedAs = JobResult.CANCELLED;
        JobIndex.stopRunning(tx, r);
        r.cancelRequested = false;
        if (r.resubmit) {
            r.resubmit = false;
            r.scheduledAt = endRun(r);
            JobIndex.place(tx, r, now);
        } else {
            r.runScheduledAt = null;
            JobIndex.finish(tx, r, JobResult.CANCELLED, now);
        }
        JobIndex.save(tx, r, now);
        return new Step(r.view(), HaltReason.CANCELLED);
    }

    /** A job as a processor's call left it, and the halt it must be told of, if any. */
    private record Step(Job job, HaltReason halt) {
        Job orHalt(String type, String id) {
            if (halt != null) {
                throw new HaltException(type, id, halt);
            }
            return job;
        }
    }

    // ---- types ---------------------------------------------------------------------------------

    public TypeInfo configureType(String type, TypeSettings settings) {
        return configureType(type, current -> settings);
    }

    /**
     * Changes a type's settings from its current ones (the defaults for a type not yet used), in
     * one transaction, so concurrent partial changes cannot undo each other.
     */
    public TypeInfo configureType(String type, java.util.function.UnaryOperator<TypeSettings> change) {
        TypeNames.checkType(type);
        return runner.run(tx -> {
            TypeSettings current = TypeRegistry.find(tx, type);
            TypeSettings settings = change.apply(current == null ? TypeSettings.DEFAULT : current);
            TypeRegistry.put(tx, type, settings);
            // Snapshot: every job transition adds to these counters; a conflicting read of them
            // would fail this write under any traffic on the type (FDB), for figures only shown.
            return new TypeInfo(type, settings, counts(tx.snapshot(), type));
        });
    }

    public Optional<TypeInfo> type(String type) {
        TypeNames.checkType(type);
        return Optional.ofNullable(runner.run(tx -> {
            TypeSettings settings = TypeRegistry.find(tx, type);
            return settings == null ? null : new TypeInfo(type, settings, counts(tx, type));
        }));
    }

    public List<TypeInfo> types() {
        return runner.run(tx -> {
            Map<String, Counts> counts = countsOfEveryType(tx);
            List<TypeInfo> infos = new ArrayList<>();
            for (Map.Entry<String, TypeSettings> entry : TypeRegistry.all(tx).entrySet()) {
                infos.add(new TypeInfo(entry.getKey(), entry.getValue(),
                        counts.getOrDefault(entry.getKey(), Counts.NONE)));
            }
            return infos;
        });
    }

    /** One type's counters, in one range read. */
    private static Counts counts(KvReads tx, String type) {
        return tallies(tx.getRange(JobKeys.countsBegin(type), JobKeys.countsEnd(type), 0)).getOrDefault(type, Counts.NONE);
    }

    /**
     * Every type's counters in one range read, where a read per counter and type made listing
     * thousands of types tens of thousands of reads (on FoundationDB, past a transaction's 5 s).
     */
    private static Map<String, Counts> countsOfEveryType(KvReads tx) {
        return tallies(tx.getRange(JobKeys.countsBegin(), JobKeys.countsEnd(), 0));
    }

    private static Map<String, Counts> tallies(List<KeyValue> counters) {
        Map<String, long[]> byType = new HashMap<>();
        for (KeyValue kv : counters) {
            Tuple key = Tuple.fromBytes(kv.key());
            Counter counter = Counter.of(key.getString(2));
            if (counter != null) {
                byType.computeIfAbsent(key.getString(1), type -> new long[Counter.values().length])[counter.ordinal()] =
                        ByteBuffer.wrap(kv.value()).order(ByteOrder.LITTLE_ENDIAN).getLong();
            }
        }
        Map<String, Counts> counts = new HashMap<>();
        byType.forEach((type, n) -> counts.put(type, new Counts(n[Counter.SCHEDULED.ordinal()] + n[Counter.READY.ordinal()],
                n[Counter.READY.ordinal()], n[Counter.RUNNING.ordinal()], n[Counter.SUCCEEDED.ordinal()],
                n[Counter.FAILED.ordinal()], n[Counter.CANCELLED.ordinal()])));
        return counts;
    }

    // ---- helpers -------------------------------------------------------------------------------

    /** The request's members checked before any transaction: a bad request changes nothing. */
    private record Validated(Change<String> data, Optional<Long> scheduledAt, Change<Priority> priority,
            Change<String> group, Change<String> repeat, Change<Integer> maxAttempts) {
    }

    private Validated validate(String type, String id, JobChanges changes) {
        checkData(type, id, changes.data());
        if (changes.priority().given() && changes.priority().value() == null) {
            throw new InvalidJobRequestException("priority", "priority is high or low");
        }
        if (changes.group().given()) {
            TypeNames.checkGroup(changes.group().value());
        }
        if (changes.maxAttempts().given()) {
            if (changes.maxAttempts().value() == null) {
                throw new InvalidJobRequestException("maxAttempts", "maxAttempts must be a number");
            }
            TypeSettings.checkMaxAttempts(changes.maxAttempts().value());
        }
        Change<String> repeat = changes.repeat().map(text -> Repeat.parse(text).requireProgress().normalized());
        Optional<Long> at = changes.scheduledAt().given() && changes.scheduledAt().value() != null
                ? Optional.of(Times.micros(changes.scheduledAt().value()))
                : Optional.empty();
        return new Validated(changes.data(), at, changes.priority(), changes.group(), repeat, changes.maxAttempts());
    }

    private void checkData(String type, String id, Change<String> data) {
        if (data.given() && data.value() != null) {
            int size = data.value().getBytes(StandardCharsets.UTF_8).length;
            if (size > options.maxDataBytes()) {
                throw new DataTooLargeException(type, id, size, options.maxDataBytes());
            }
        }
    }

    private static JobRecord newRecord(String type, String id, Validated v, TypeSettings settings, long now,
            String nonce) {
        JobRecord r = new JobRecord(type, id);
        r.state = JobState.PENDING;
        r.data = v.data().orElse(null);
        r.group = v.group().orElse("");
        r.priority = v.priority().orElse(Priority.LOW);
        r.scheduledAt = v.scheduledAt().orElse(now);
        r.createdAt = now;
        r.repeat = v.repeat().orElse(null);
        r.maxAttempts = v.maxAttempts().orElse(settings.maxAttempts());
        r.origin = nonce;
        return r;
    }

    private static void apply(JobRecord r, Validated v) {
        r.data = v.data().orElse(r.data);
        v.scheduledAt().ifPresent(at -> rescheduleRun(r, at));
        r.group = v.group().orElse(r.group);
        applyToRunning(r, v);
    }

    /** What may change while a job runs, without touching its indexes. */
    private static void applyToRunning(JobRecord r, Validated v) {
        r.priority = v.priority().orElse(r.priority);
        r.repeat = v.repeat().orElse(r.repeat);
        r.maxAttempts = v.maxAttempts().orElse(r.maxAttempts);
    }

    /** A finished job starts over as a fresh run. */
    private static void restart(JobRecord r, long at) {
        r.scheduledAt = at;
        r.runScheduledAt = null;
        r.attempt = 0;
        r.lastError = null;
        r.retry = false;
        r.resubmit = false;
        r.cancelRequested = false;
    }

    private static JobRecord require(KvTransaction tx, String type, String id) {
        JobRecord r = JobIndex.load(tx, type, id);
        if (r == null) {
            throw new JobNotFoundException(type, id);
        }
        return r;
    }

    /** The job if {@code lease} is its current lease; otherwise the halt that tells the processor why. */
    private static JobRecord requireLease(KvTransaction tx, String type, String id, String lease) {
        JobRecord r = JobIndex.load(tx, type, id);
        checkLease(r, type, id, lease);
        return r;
    }

    private static void checkLease(JobRecord r, String type, String id, String lease) {
        if (r == null) {
            throw new HaltException(type, id, HaltReason.REMOVED);
        }
        if (lease == null || !lease.equals(r.lease)) {
            boolean cancelled = r.state == JobState.FINISHED && r.result == JobResult.CANCELLED
                    || lease != null && lease.equals(r.finishedLease) && r.finishedAs == JobResult.CANCELLED;
            throw new HaltException(type, id, cancelled ? HaltReason.CANCELLED : HaltReason.LEASE_LOST);
        }
    }

    private static void requireLeaseGiven(String lease) {
        if (lease == null || lease.isEmpty()) {
            throw new InvalidJobRequestException("lease", "the lease accept handed out is required");
        }
    }

    /** The first {@code max} characters (code points: a cut never splits a surrogate pair). */
    private static String truncate(String text, int max) {
        if (text.length() <= max || text.codePointCount(0, text.length()) <= max) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, max));
    }

    private static String encodeCursor(String id) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(id.getBytes(StandardCharsets.UTF_8));
    }

    private static String decodeCursor(String cursor) {
        try {
            String id = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            TypeNames.checkId(id);
            // Encoding it again gives back the cursor only if it was this service's encoding: no
            // padding, no stray low bits, UTF-8 that did not decode to replacement characters.
            if (!encodeCursor(id).equals(cursor)) {
                throw new IllegalArgumentException("not canonical");
            }
            return id;
        } catch (IllegalArgumentException | InvalidJobRequestException e) {
            throw new InvalidJobRequestException("cursor", "cursor is not one this service handed out");
        }
    }
}
