package io.jobfoundry.jobs;

import io.jobfoundry.Texts;
import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.BatchTooLargeException;
import io.jobfoundry.jobs.model.CallKey;
import io.jobfoundry.jobs.model.FinishItem;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.HeartbeatItem;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.ItemResult;
import io.jobfoundry.jobs.model.JobConflictException;
import io.jobfoundry.jobs.model.NewJob;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.Adds;
import io.jobfoundry.jobs.records.Processing;
import io.jobfoundry.jobs.records.Runs;
import io.jobfoundry.jobs.records.Step;
import io.jobfoundry.jobs.records.Times;
import io.jobfoundry.jobs.records.Tokens;
import io.jobfoundry.jobs.records.TypeRegistry;
import io.jobfoundry.jobs.records.ValidChanges;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionRunner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.logging.Logger;

/**
 * Many creates, finishes or heartbeats in one transaction (BullMQ's {@code addBulk}, River's
 * {@code InsertMany}): producers and workers with volume pay one commit per batch, not per job.
 * Every item is checked before the transaction ({@link #check}); a batch holds each job at most
 * once, at most {@link #MAX_ITEMS} items and {@link #MAX_DATA_BYTES} of data sent. What it writes
 * is its jobs' whole records, though: a batch that outgrows one transaction all the same
 * (heartbeats of jobs that already hold large data) fails whole with the store's
 * {@code StoreLimitException}, changing nothing, and the API answers it {@code 413}.
 *
 * <p>An item's {@code after} may name jobs that exist and jobs of earlier items of the same batch:
 * items are added in order in one transaction, which reads back what its earlier items wrote (a
 * new or changed job is written plainly, never versionstamped). A later item is not there yet
 * when an earlier one looks: that is the {@code 400} of a job that does not exist.
 */
public final class JobBatches {

    private static final Logger LOG = Logger.getLogger(JobBatches.class);

    /** Items in one batch at most. */
    public static final int MAX_ITEMS = 1000;
    /**
     * The data a batch sends, at most: with a record's own fields, its index keys and counters (well
     * under 1 KB a job, 1,000 jobs at most) a batch of new jobs stays under FoundationDB's 10 MB.
     */
    public static final int MAX_DATA_BYTES = 8 * 1024 * 1024;

    private final EngineContext context;
    private final TransactionRunner runner;
    private final EngineOptions options;

    JobBatches(EngineContext context, EngineOptions options) {
        this.context = context;
        this.runner = context.runner();
        this.options = options;
    }

    /** Adds (or, with an id, puts) every job in one transaction; the answers are in the items' order. */
    public CompletableFuture<List<Added>> createAll(List<NewJob> jobs) {
        return createAll(jobs, null);
    }

    /**
     * {@link #createAll}, as the call {@code key} names (none if {@code null}), so that a repeat of
     * the same batch recognizes the items it already added or changed. Under a key every item names
     * its job: a repeat could not tell an item without an id from a new job, so it is refused.
     */
    public CompletableFuture<List<Added>> createAll(List<NewJob> jobs, CallKey key) {
        checkCount(jobs.size());
        List<ValidChanges> valid = new ArrayList<>(jobs.size());
        List<String> ids = new ArrayList<>(jobs.size());
        Set<String> seen = new HashSet<>();
        long data = 0;
        for (int i = 0; i < jobs.size(); i++) {
            NewJob job = jobs.get(i);
            if (key != null && job.id() == null) {
                throw InvalidJobRequestException.ofItem(i, new InvalidJobRequestException("id", "an id is required "
                        + "under an Idempotency-Key: a repeat could not tell a job without one from a new job"));
            }
            String id = job.id() != null ? job.id() : Tokens.jobId(context.clock().millis());
            valid.add(check(job));
            once(seen, i, job.type(), id);
            ids.add(id);
            data += bytes(job.changes().data().orElse(null));
        }
        checkData(data);
        long now = context.now();
        List<String> nonces = new ArrayList<>(jobs.size());
        for (int i = 0; i < jobs.size(); i++) {
            nonces.add(Tokens.itemNonce(key, i));
        }
        return runner.runAsync(tx -> {
            List<Added> added = new ArrayList<>(jobs.size());
            Map<String, TypeSettings> types = new HashMap<>(); // per attempt: a retry reads them afresh
            for (int i = 0; i < jobs.size(); i++) {
                String type = jobs.get(i).type();
                TypeSettings settings = types.computeIfAbsent(type, t -> TypeRegistry.ensure(tx, t));
                try {
                    added.add(Adds.add(tx, settings, type, ids.get(i), valid.get(i), now, nonces.get(i), true));
                } catch (InvalidJobRequestException e) { // a job named in after that does not exist
                    throw InvalidJobRequestException.ofItem(i, e);
                } catch (JobConflictException e) { // after for a running job, or one others wait for
                    throw JobConflictException.ofItem(i, e);
                }
            }
            return added;
        }, Sync.ON_COMMIT);
    }

    /**
     * Finishes every item in one transaction; items are independent, so one whose lease is no
     * longer valid answers its halt and the others still finish.
     */
    public CompletableFuture<List<ItemResult>> finishAll(List<FinishItem> items) {
        checkCount(items.size());
        Set<String> seen = new HashSet<>();
        long data = 0;
        for (int i = 0; i < items.size(); i++) {
            check(items.get(i));
            once(seen, i, items.get(i).type(), items.get(i).id());
            data += bytes(items.get(i).data().orElse(null)) + bytes(items.get(i).error());
        }
        checkData(data);
        long now = context.now();
        List<Processing.Finish> finishes = new ArrayList<>(items.size());
        for (FinishItem item : items) {
            finishes.add(new Processing.Finish(item.type(), item.id(), item.lease(), item.succeeded(), item.data(),
                    item.error() == null ? null : Texts.truncate(item.error(), Runs.MAX_ERROR_LENGTH), now,
                    Tokens.next(), ThreadLocalRandom.current().nextDouble(), 0));
        }
        return runner.runAsync(tx -> {
            List<Object> done = new ArrayList<>(items.size());
            for (Processing.Finish finish : finishes) {
                try {
                    done.add(Processing.finish(tx, finish));
                } catch (HaltException e) {
                    done.add(e.reason()); // checked before the item wrote anything
                }
            }
            return done;
        }, Sync.ON_COMMIT).thenApply(done -> {
            List<ItemResult> results = new ArrayList<>(done.size());
            for (int i = 0; i < done.size(); i++) {
                FinishItem item = items.get(i);
                if (done.get(i) instanceof Processing.Finished finished) {
                    Runs.logSeriesEnd(item.type(), item.id(), finished.seriesEnd());
                    if (finished.startedAt() >= 0) {
                        observeFinish(item, finished, now);
                    }
                    results.add(result(finished.step()));
                } else {
                    results.add(new ItemResult(null, (HaltReason) done.get(i)));
                }
            }
            return results;
        });
    }

    /** Heartbeats every item in one transaction; items are independent, as in {@link #finishAll}. */
    public CompletableFuture<List<ItemResult>> heartbeatAll(List<HeartbeatItem> items) {
        checkCount(items.size());
        Set<String> seen = new HashSet<>();
        long data = 0;
        for (int i = 0; i < items.size(); i++) {
            check(items.get(i));
            once(seen, i, items.get(i).type(), items.get(i).id());
            data += bytes(items.get(i).data().orElse(null));
        }
        checkData(data);
        long now = context.now();
        // DEFERRABLE, as a single heartbeat: one lost to a power failure is a late heartbeat.
        return runner.runAsync(tx -> {
            List<ItemResult> results = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                HeartbeatItem item = items.get(i);
                try {
                    results.add(result(Processing.heartbeat(tx, item.type(), item.id(), item.lease(), item.data(),
                            now, i)));
                } catch (HaltException e) {
                    results.add(new ItemResult(null, e.reason())); // checked before the item wrote anything
                }
            }
            return results;
        }, Sync.DEFERRABLE);
    }

    /** Checks one job of a batch create as the single call would; throws what a client is told. */
    public ValidChanges check(NewJob job) {
        TypeNames.checkType(job.type());
        if (job.id() != null) {
            TypeNames.checkId(job.id());
        }
        return ValidChanges.of(job.type(), job.id(), job.changes(), options.maxDataBytes());
    }

    /** Checks one finish of a batch as the single call would. */
    public void check(FinishItem item) {
        checkProcessorCall(item.type(), item.id(), item.lease());
        ValidChanges.checkData(item.type(), item.id(), item.data(), options.maxDataBytes());
    }

    /** Checks one heartbeat of a batch as the single call would. */
    public void check(HeartbeatItem item) {
        checkProcessorCall(item.type(), item.id(), item.lease());
        ValidChanges.checkData(item.type(), item.id(), item.data(), options.maxDataBytes());
    }

    private static void checkProcessorCall(String type, String id, String lease) {
        TypeNames.checkType(type);
        TypeNames.checkId(id);
        Processing.requireLeaseGiven(lease);
    }

    private static void checkCount(int items) {
        if (items < 1 || items > MAX_ITEMS) {
            throw new InvalidJobRequestException("jobs", "a batch holds 1 to " + MAX_ITEMS + " items, not " + items);
        }
    }

    /**
     * A job twice in one batch is refused: the second item would read what the first wrote in the
     * same transaction, which FoundationDB cannot read back once it holds a versionstamp.
     */
    private static void once(Set<String> seen, int index, String type, String id) {
        if (!seen.add(type + '\u0000' + id)) {
            throw InvalidJobRequestException.ofItem(index, new InvalidJobRequestException(null,
                    "job " + id + " of type " + type + " is in the batch already: each job at most once per batch"));
        }
    }

    private static void checkData(long bytes) {
        if (bytes > MAX_DATA_BYTES) {
            throw new BatchTooLargeException(bytes, MAX_DATA_BYTES);
        }
    }

    private static long bytes(String text) {
        return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static ItemResult result(Step step) {
        return new ItemResult(step.halt() == null ? step.job() : null, step.halt());
    }

    private void observeFinish(FinishItem item, Processing.Finished finished, long now) {
        try {
            context.observer().finished(item.type(), item.succeeded(),
                    Times.elapsedForMetrics(finished.startedAt(), now));
            if (finished.runFailed()) {
                context.observer().runsFailed(item.type(), 1);
            }
        } catch (RuntimeException e) {
            LOG.error("reporting a finish to the metrics failed; the finish stands", e); // it committed
        }
    }
}
