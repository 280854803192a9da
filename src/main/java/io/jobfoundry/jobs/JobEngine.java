package io.jobfoundry.jobs;

import io.jobfoundry.Futures;
import io.jobfoundry.Texts;
import io.jobfoundry.jobs.accept.Accepting;
import io.jobfoundry.jobs.accept.HandOff;
import io.jobfoundry.jobs.accept.Waiters;
import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.context.JobObserver;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.BulkAction;
import io.jobfoundry.jobs.model.BulkResult;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.CallKey;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.GroupPage;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobFilter;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.TypeInfo;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.Adds;
import io.jobfoundry.jobs.records.Edits;
import io.jobfoundry.jobs.records.JobRecord;
import io.jobfoundry.jobs.records.Listing;
import io.jobfoundry.jobs.records.Processing;
import io.jobfoundry.jobs.records.RecentListing;
import io.jobfoundry.jobs.records.Runs;
import io.jobfoundry.jobs.records.Times;
import io.jobfoundry.jobs.records.Tokens;
import io.jobfoundry.jobs.records.ValidChanges;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionRunner;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * The job engine's API: couch_jobs' add / remove / accept / update / finish / resubmit, with
 * Bedrock's recurring jobs and docspell's groups, priorities and retries. Each operation reads
 * like couch_jobs': check the request, draw what its attempts must share, then one transaction
 * through the {@link TransactionRunner} whose body (in {@code records}) looks the job up, checks
 * the lease, moves the job and saves it.
 *
 * <p>Every operation is safe to run again: its time, its nonce and any leases it hands out are
 * drawn before the transaction, and operations whose retry could not otherwise tell its own
 * earlier commit from someone else's record enough to recognize it (the nonce of a creation, the
 * lease of a finish, the outcome of an accept).
 */
public final class JobEngine {

    private static final Logger LOG = Logger.getLogger(JobEngine.class);

    private final EngineContext context;
    private final TransactionRunner runner;
    private final EngineOptions options;
    private final Accepting accepting;
    private final Waiters waiters;
    private final JobBatches batches;
    private final JobTypes types;
    private final JobsAcrossTypes acrossTypes;

    /**
     * @param accepting the accept path, shared with whatever serves blocked accepts
     * @param waiters   where a due job being added looks for a blocked accept to hand itself to
     */
    public JobEngine(EngineContext context, EngineOptions options, Accepting accepting, Waiters waiters) {
        this.context = context;
        this.runner = context.runner();
        this.options = options;
        this.accepting = accepting;
        this.waiters = waiters;
        this.batches = new JobBatches(context, options);
        this.types = new JobTypes(context);
        this.acrossTypes = new JobsAcrossTypes(context);
    }

    /** An engine with nobody blocked in accept to hand jobs to (tools, tests, benchmarks). */
    public JobEngine(TransactionRunner runner, Clock clock, EngineOptions options) {
        this(runner, clock, options, JobObserver.NONE);
    }

    public JobEngine(TransactionRunner runner, Clock clock, EngineOptions options, JobObserver observer) {
        this(new EngineContext(runner, clock, observer), options);
    }

    private JobEngine(EngineContext context, EngineOptions options) {
        this(context, options, new Accepting(context, options), Waiters.NONE);
    }

    /** This engine (its context, options and accept path), handing the jobs it adds to {@code waiters}. */
    public JobEngine withWaiters(Waiters waiters) {
        return new JobEngine(context, options, accepting, waiters);
    }

    /** Many creates, finishes or heartbeats in one transaction each. */
    public JobBatches batches() {
        return batches;
    }

    public EngineContext context() {
        return context;
    }

    /** The accept path this engine leases jobs through: build waits on it ({@code JobWaits}). */
    public Accepting accepting() {
        return accepting;
    }

    // ---- creating and managing jobs --------------------------------------------------------------

    /** couch_jobs {@code add} with a generated id. */
    public Added create(String type, JobChanges changes) {
        return Futures.join(createAsync(type, changes));
    }

    /** {@link #create} without blocking; invalid input still throws at once. */
    public CompletableFuture<Added> createAsync(String type, JobChanges changes) {
        // Its creation millisecond, then randomness, so ids list in creation order.
        return putAsync(type, Tokens.jobId(context.clock().millis()), changes);
    }

    /**
     * couch_jobs {@code add}: a new job is pending; a pending one takes the changes; a running one
     * is flagged to run again when it finishes; a finished one is pending again.
     */
    public Added put(String type, String id, JobChanges changes) {
        return Futures.join(putAsync(type, id, changes));
    }

    /**
     * {@link #put} without blocking; invalid input still throws at once. A job due now goes
     * straight to a processor blocked in accept for its type, if one waits here, in the same
     * transaction ({@link Accepting#addAndHandOff}).
     */
    public CompletableFuture<Added> putAsync(String type, String id, JobChanges changes) {
        return putAsync(type, id, changes, null);
    }

    /**
     * {@link #putAsync}, as the call {@code key} names (none if {@code null}): a repeat of a call
     * that took effect finds the job marked with the key and changes nothing.
     */
    public CompletableFuture<Added> putAsync(String type, String id, JobChanges changes, CallKey key) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        ValidChanges valid = ValidChanges.of(type, id, changes, options.maxDataBytes());
        long now = context.now();
        String nonce = Tokens.nonce(key);
        // A hint only (the job may exist): a new cron job waits for its first slot.
        long due = valid.firstRun(now);
        // A job that may wait for others is not handed to a waiter: it is most likely not due.
        boolean mayWait = valid.after().given() && !valid.after().value().isEmpty();
        HandOff handOff = due <= now && !mayWait ? waiters.claim(type, due) : null;
        if (handOff == null) {
            return runner.runAsync(tx -> Adds.add(tx, type, id, valid, now, nonce, true), Sync.ON_COMMIT);
        }
        return accepting.addAndHandOff(handOff, type, id, now, tx -> Adds.add(tx, type, id, valid, now, nonce, false));
    }

    public Optional<Job> get(String type, String id) {
        return Futures.join(getAsync(type, id));
    }

    /**
     * {@link #get} without blocking; invalid names still throw at once. A read answered from the
     * store's own thread saves a request the hops to and from a worker thread, which were most of
     * what a {@code GET} of a job cost.
     */
    public CompletableFuture<Optional<Job>> getAsync(String type, String id) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        return runner.runAsync(tx -> {
            JobRecord r = JobRecord.load(tx, type, id);
            return Optional.ofNullable(r == null ? null : r.view());
        }, Sync.ON_COMMIT);
    }

    /**
     * Jobs of a type in id order, optionally of one state, result (finished jobs only) and group. A
     * page may hold fewer than {@code limit} jobs while {@code next} is not null: filters scan at most
     * a bounded number of jobs per call.
     */
    public JobPage list(String type, JobState state, JobResult result, String group, int limit, String cursor) {
        checkPage(type, limit);
        String after = cursor == null ? null : Listing.decodeCursor(cursor);
        return runner.run(tx -> Listing.page(tx, type, state, result, group, limit, after));
    }

    /** A type's finished jobs, the latest finished first ({@link RecentListing}); otherwise as {@link #list}. */
    public JobPage listRecent(String type, JobResult result, String group, int limit, String cursor) {
        checkPage(type, limit);
        RecentListing.Position after = cursor == null ? null : RecentListing.decodeCursor(cursor);
        return runner.run(tx -> RecentListing.page(tx, type, result, group, limit, after));
    }

    private static void checkPage(String type, int limit) {
        TypeNames.checkType(type);
        if (limit < 1 || limit > 1000) {
            throw new InvalidJobRequestException("limit", "limit must be within 1..1000");
        }
    }

    /** {@link #listAll(JobFilter, Predicate, int, String)} over every type the filter covers. */
    public JobPage listAll(JobFilter filter, int limit, String cursor) {
        return acrossTypes.list(filter, type -> true, limit, cursor);
    }

    /** Jobs of the types {@code filter} and {@code scope} (those the caller may see) cover ({@link JobsAcrossTypes}). */
    public JobPage listAll(JobFilter filter, Predicate<String> scope, int limit, String cursor) {
        return acrossTypes.list(filter, scope, limit, cursor);
    }

    /** {@link #bulk(BulkAction, JobFilter, Predicate, int)} over every type the filter covers. */
    public BulkResult bulk(BulkAction action, JobFilter filter, int limit) {
        return acrossTypes.bulk(action, filter, type -> true, limit);
    }

    /** Cancels, retries or removes what {@code filter} and {@code scope} match, a page per transaction. */
    public BulkResult bulk(BulkAction action, JobFilter filter, Predicate<String> scope, int limit) {
        return acrossTypes.bulk(action, filter, scope, limit);
    }

    /**
     * Changes {@code priority}, {@code repeat} and {@code maxAttempts} of any job; {@code scheduledAt},
     * {@code data} and {@code group} only of a pending one.
     */
    public Job patch(String type, String id, JobChanges changes) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        ValidChanges valid = ValidChanges.of(type, id, changes, options.maxDataBytes());
        boolean pendingOnly = changes.data().given() || changes.scheduledAt().given() || changes.group().given();
        long now = context.now();
        return runner.run(tx -> Edits.patch(tx, type, id, valid, pendingOnly, now));
    }

    /** Removes every trace of the job; a processor running it is told {@code removed}. */
    public void remove(String type, String id) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        long now = context.now();
        String nonce = Tokens.next();
        runner.run(tx -> {
            Edits.remove(tx, type, id, now, nonce);
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
        long now = context.now();
        return runner.run(tx -> Edits.cancel(tx, type, id, now));
    }

    /**
     * couch_jobs {@code resubmit}: a pending job moves to {@code scheduledAt}; a running one runs
     * again after it finishes; a finished one is pending again. A processor passes its lease.
     */
    public Job resubmit(String type, String id, Instant scheduledAt, String lease) {
        return resubmit(type, id, scheduledAt, lease, null);
    }

    /** {@link #resubmit}, as the call {@code key} names, if any: its repeat changes nothing, as a put's. */
    public Job resubmit(String type, String id, Instant scheduledAt, String lease, CallKey key) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        long now = context.now();
        Long at = scheduledAt == null ? null : Times.micros(scheduledAt);
        String nonce = Tokens.nonce(key);
        return runner.run(tx -> Edits.resubmit(tx, type, id, at, lease, now, nonce)).orHalt(type, id);
    }

    // ---- processing jobs -----------------------------------------------------------------------

    /** Takes up to {@code max} due jobs of the requested types, each under a fresh lease. */
    public List<LeasedJob> accept(AcceptRequest request) {
        return Futures.join(acceptAsync(request));
    }

    /** {@link #accept} without blocking. */
    public CompletableFuture<List<LeasedJob>> acceptAsync(AcceptRequest request) {
        return accepting.acceptAsync(request);
    }

    /** couch_jobs {@code update}: renews the activity timeout and optionally replaces the data. */
    public Job heartbeat(String type, String id, String lease, Change<String> data) {
        return Futures.join(heartbeatAsync(type, id, lease, data));
    }

    /** {@link #heartbeat} without blocking; invalid input still throws at once. */
    public CompletableFuture<Job> heartbeatAsync(String type, String id, String lease, Change<String> data) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        Processing.requireLeaseGiven(lease);
        ValidChanges.checkData(type, id, data, options.maxDataBytes());
        long now = context.now();
        return runner.runAsync(tx -> Processing.heartbeat(tx, type, id, lease, data, now, 0),
                        Sync.DEFERRABLE) // a heartbeat lost to a power failure is a late heartbeat
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
        return finishAsync(type, id, lease, succeeded, data, error, 0);
    }

    /**
     * A failed attempt whose retry is due no sooner than {@code notBefore}, nor before its backoff:
     * what a push target's {@code 429} or {@code 503} with {@code Retry-After} asks for. Otherwise
     * as {@link #finishAsync} with {@code failed}: out of attempts, the run ends {@code failed}.
     */
    public CompletableFuture<Job> failAsync(String type, String id, String lease, String error, Instant notBefore) {
        return finishAsync(type, id, lease, false, Change.keep(), error, Times.micros(notBefore));
    }

    private CompletableFuture<Job> finishAsync(String type, String id, String lease, boolean succeeded,
            Change<String> data, String error, long notBefore) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        Processing.requireLeaseGiven(lease);
        ValidChanges.checkData(type, id, data, options.maxDataBytes());
        long now = context.now();
        Processing.Finish finish = new Processing.Finish(type, id, lease, succeeded, data,
                error == null ? null : Texts.truncate(error, Runs.MAX_ERROR_LENGTH), now, Tokens.next(),
                ThreadLocalRandom.current().nextDouble(), notBefore);
        return runner.runAsync(tx -> Processing.finish(tx, finish), Sync.ON_COMMIT).thenApply(done -> {
            Runs.logSeriesEnd(type, id, done.seriesEnd());
            if (done.startedAt() >= 0) {
                try {
                    context.observer().finished(type, succeeded, Times.elapsedForMetrics(done.startedAt(), now));
                    if (done.runFailed()) {
                        context.observer().runsFailed(type, 1);
                    }
                } catch (RuntimeException e) {
                    LOG.error("reporting a finish to the metrics failed; the finish stands", e); // it committed
                }
            }
            return done.step().orHalt(type, id);
        });
    }

    // ---- types ({@link JobTypes}) -----------------------------------------------------------------

    public TypeInfo configureType(String type, TypeSettings settings) {
        return types.configureType(type, settings);
    }

    /**
     * Changes a type's settings from its current ones (the defaults for a type not yet used), in
     * one transaction, so concurrent partial changes cannot undo each other.
     */
    public TypeInfo configureType(String type, UnaryOperator<TypeSettings> change) {
        return types.configureType(type, change);
    }

    /**
     * Pauses or resumes a type (registering it with the defaults if it is new): a paused type hands
     * out no job, on any replica, while everything else goes on.
     */
    public TypeInfo pause(String type, boolean paused) {
        return types.pause(type, paused);
    }

    /** Deletes a type no job uses, in one transaction ({@link JobTypes#delete}); false if it was never used. */
    public boolean deleteType(String type) {
        return types.delete(type);
    }

    public Optional<TypeInfo> type(String type) {
        return types.type(type);
    }

    /** The settings of every type delivered by push, in name order, without counts. */
    public CompletableFuture<Map<String, TypeSettings>> pushTypesAsync() {
        return types.pushTypesAsync();
    }

    /** The fairness groups of a type with pending or running jobs, and their counts; empty for an unknown type. */
    public Optional<GroupPage> groups(String type, int limit, String cursor) {
        return types.groups(type, limit, cursor);
    }

    public List<TypeInfo> types() {
        return types.types();
    }
}
