package io.jobfoundry.jobs.accept;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.records.JobRecord;
import io.jobfoundry.jobs.records.Processing;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.Sync;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Every transaction that leases jobs out (couch_jobs' {@code couch_jobs_pending}): a worker's
 * accept, a dispatcher's round for the accepts blocked on one set of types, and an add that hands
 * its job to a blocked accept in the same transaction. One instance per engine: its
 * {@link Acceptor} keeps the fairness turns that all of them share.
 */
public final class Accepting {

    private final EngineContext context;
    private final EngineOptions options;
    private final Acceptor acceptor;

    public Accepting(EngineContext context, EngineOptions options) {
        this.context = context;
        this.options = options;
        this.acceptor = new Acceptor(options.acceptWindow());
    }

    public EngineContext context() {
        return context;
    }

    /** Takes up to {@code max} due jobs of the requested types, each under a fresh lease. */
    public CompletableFuture<List<LeasedJob>> acceptAsync(AcceptRequest request) {
        return acceptForAsync(request.types(), request.maxScheduledAt(),
                List.of(new Claim(request.worker(), request.max())), false).thenApply(batch -> batch.jobs().get(0));
    }

    /**
     * Serves several processors that ask for the same types in one transaction (a dispatcher's
     * round); with {@code watch}, the batch says what the claims still short wait on.
     */
    public CompletableFuture<AcceptBatch> acceptForAsync(List<String> patterns, Instant maxScheduledAt,
            List<Claim> claims, boolean watch) {
        AcceptAttempt accept = new AcceptAttempt(acceptor, patterns, maxScheduledAt, claims, context.now());
        // DEFERRABLE: a lease lost with an unflushed commit only makes its holder's next call halt.
        return context.runner().runAsync(tx -> accept.run(tx, watch), Sync.DEFERRABLE)
                .thenApply(batch -> accept.committed(batch, context.observer()));
    }

    private record AddedAndHanded(Added added, AcceptBatch handed) {
    }

    /**
     * Adds a job ({@code add}, which must not announce it) and runs {@code handOff}'s accept in
     * the same transaction. The job a worker was waiting for then costs one commit instead of two,
     * and no watch has to fire between them. The accept takes what the {@link Acceptor} chooses,
     * as any accept would, so order and fairness hold: if that is an older job, the added one, if
     * ready, is announced to the other waiters.
     *
     * <p>Where transactions run at once (FoundationDB), it takes the added job or nothing: an
     * older job is what the dispatcher's round and every other replica's are taking too, and
     * creates arriving faster than the rounds commit made them conflict over it until a round ran
     * out of attempts (EngineConcurrencyContract). The older job goes to the next round.
     */
    public CompletableFuture<Added> addAndHandOff(HandOff handOff, String type, String id, long now,
            Function<KvTransaction, Added> add) {
        AcceptRequest request = handOff.request();
        AcceptAttempt accept = new AcceptAttempt(acceptor, request.types(), request.maxScheduledAt(),
                List.of(new Claim(request.worker(), request.max())), now);
        if (options.concurrentStore()) {
            accept.onlyAdded(type, id);
        }
        CompletableFuture<AddedAndHanded> done;
        try {
            done = context.runner().runAsync(tx -> {
                Added added = add.apply(tx);
                AcceptBatch handed = accept.run(tx, false);
                if (handed.jobs().get(0).stream()
                        .noneMatch(leased -> leased.job().type().equals(type) && leased.job().id().equals(id))) {
                    JobRecord r = JobRecord.load(tx, type, id);
                    if (r != null && r.state() == JobState.PENDING && r.due()) {
                        JobRecord.announceReady(tx, type);
                    }
                }
                return new AddedAndHanded(added, handed);
            }, Sync.ON_COMMIT);
        } catch (RuntimeException e) {
            handOff.settle(List.of());
            throw e;
        }
        return done.whenComplete((both, failure) -> handOff.settle(both == null ? List.of()
                        : accept.committed(both.handed(), context.observer()).jobs().get(0)))
                .thenApply(AddedAndHanded::added);
    }

    /** Hands a job taken for a processor that is gone (its wait ended) back to the queue, unchanged. */
    public void release(LeasedJob leased) {
        long now = context.now();
        context.runner().run(tx -> {
            Processing.release(tx, leased, now);
            return null;
        });
    }
}
