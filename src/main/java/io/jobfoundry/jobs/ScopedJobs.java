package io.jobfoundry.jobs;

import io.jobfoundry.Futures;
import io.jobfoundry.Texts;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.BulkAction;
import io.jobfoundry.jobs.model.BulkResult;
import io.jobfoundry.jobs.model.CallKey;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.FinishItem;
import io.jobfoundry.jobs.model.GroupPage;
import io.jobfoundry.jobs.model.HeartbeatItem;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.ItemResult;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobEvent;
import io.jobfoundry.jobs.model.JobFilter;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.NewJob;
import io.jobfoundry.jobs.model.TypeInfo;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.jobs.model.TypeScope;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.Dependencies;
import io.jobfoundry.jobs.waits.JobWaits;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The engine as one caller may use it: every entry point first checks the type against the
 * caller's {@link TypeScope} (refusing with {@code TypeForbiddenException} before anything is read
 * or changed), accepts are narrowed to the scope, listings of types show only the scope's, and a
 * batch with any item outside the scope is refused whole. Dependencies do not cross the scope either:
 * naming a job of another type in {@code after} is answered as naming one that does not exist, and
 * the jobs it answers show only the dependencies of types in the scope. The API reaches jobs only through this
 * view, so a confined token is confined whichever resource it calls; the engine itself stays
 * unscoped for the monitors, tools and tests.
 *
 * <p>Destructive calls (remove, cancel, bulk, pause, resume, type changes and deletion) log one
 * audit line ({@link Audit}) with the caller's name, after they succeed. A view is
 * made per request: it holds four references and checks nothing more than a glob match when the
 * token is confined.
 */
public final class ScopedJobs {

    private final JobEngine engine;
    private final JobWaits waits;
    private final TypeScope scope;
    private final String caller;

    /** @param caller the caller's name for audit lines: a token's name, never the token */
    public ScopedJobs(JobEngine engine, JobWaits waits, TypeScope scope, String caller) {
        this.engine = engine;
        this.waits = waits;
        this.scope = scope;
        this.caller = caller;
    }

    public TypeScope scope() {
        return scope;
    }

    public String caller() {
        return caller;
    }

    // ---- one job ---------------------------------------------------------------------------------

    public CompletableFuture<Added> createAsync(String type, JobChanges changes) {
        scope.check(type);
        checkAfter(changes);
        return shownWhenDone(engine.createAsync(type, changes), this::shown);
    }

    public CompletableFuture<Added> putAsync(String type, String id, JobChanges changes, CallKey key) {
        scope.check(type);
        checkAfter(changes);
        return shownWhenDone(engine.putAsync(type, id, changes, key), this::shown);
    }

    public CompletableFuture<Optional<Job>> getAsync(String type, String id) {
        scope.check(type);
        return shownWhenDone(engine.getAsync(type, id), job -> job.map(this::shown));
    }

    public CompletionStage<Job> waitFor(String type, String id, JobState state, Duration timeout) {
        scope.check(type);
        return shownWhenDone(waits.waitFor(type, id, state, timeout), this::shown);
    }

    /** @see JobWaits#subscribe */
    public JobWaits.Subscription subscribe(String type, String id, Consumer<JobEvent> listener) {
        scope.check(type);
        return waits.subscribe(type, id, event -> listener.accept(event.job() == null ? event
                : new JobEvent(shown(event.job()), event.removed())));
    }

    public JobPage list(String type, JobState state, JobResult result, String group, int limit, String cursor) {
        scope.check(type);
        return shown(engine.list(type, state, result, group, limit, cursor));
    }

    /** The type's finished jobs, the latest first ({@link JobEngine#listRecent}), if this caller may see the type. */
    public JobPage listRecent(String type, JobResult result, String group, int limit, String cursor) {
        scope.check(type);
        return shown(engine.listRecent(type, result, group, limit, cursor));
    }

    /**
     * Jobs across the types {@code filter} covers that this caller may see: a type glob is
     * narrowed to the scope, an exact type outside it is refused.
     */
    public JobPage listAll(JobFilter filter, int limit, String cursor) {
        checkNamed(filter);
        return shown(engine.listAll(filter, scope::permits, limit, cursor));
    }

    /** A bulk action on the matching jobs of the types this caller may use (as {@link #listAll}). */
    public BulkResult bulk(BulkAction action, JobFilter filter, int limit) {
        checkNamed(filter);
        BulkResult result = engine.bulk(action, filter, scope::permits, limit);
        Audit.log(caller, "bulk-" + action.wireName(), filter.types(), null, String.format(
                "%s ran bulk %s on %s%s: %d matched, %d changed", caller, action.wireName(), filter.describe(),
                scope.isAll() ? "" : " within the token's types " + String.join(",", scope.globs()), result.matched(),
                result.changed()));
        return result;
    }

    private void checkNamed(JobFilter filter) {
        if (filter.types() != null && !TypeNames.isGlob(filter.types())) {
            scope.check(filter.types());
        }
    }

    public Job patch(String type, String id, JobChanges changes) {
        scope.check(type);
        return shown(engine.patch(type, id, changes));
    }

    public void remove(String type, String id) {
        scope.check(type);
        engine.remove(type, id);
        Audit.log(caller, "remove", type, Texts.visible(id), caller + " removed job " + type + "/" + Texts.visible(id));
    }

    public Job cancel(String type, String id) {
        scope.check(type);
        Job job = engine.cancel(type, id);
        Audit.log(caller, "cancel", type, Texts.visible(id),
                caller + " cancelled job " + type + "/" + Texts.visible(id));
        return shown(job);
    }

    public Job resubmit(String type, String id, Instant scheduledAt, String lease, CallKey key) {
        scope.check(type);
        return shown(engine.resubmit(type, id, scheduledAt, lease, key));
    }

    public CompletableFuture<Job> heartbeatAsync(String type, String id, String lease, Change<String> data) {
        scope.check(type);
        return shownWhenDone(engine.heartbeatAsync(type, id, lease, data), this::shown);
    }

    public CompletableFuture<Job> finishAsync(String type, String id, String lease, boolean succeeded,
            Change<String> data, String error) {
        scope.check(type);
        return shownWhenDone(engine.finishAsync(type, id, lease, succeeded, data, error), this::shown);
    }

    // ---- processing --------------------------------------------------------------------------------

    /** The accept, its types narrowed to the scope ({@link TypeScope#narrow}). */
    public CompletionStage<List<LeasedJob>> accept(AcceptRequest request, Duration wait) {
        List<String> types = scope.narrow(request.types()); // checks them for every caller, confined or not
        if (!scope.isAll()) {
            request = new AcceptRequest(types, request.max(), request.maxScheduledAt(), request.worker());
        }
        return shownWhenDone(waits.accept(request, wait),
                jobs -> jobs.stream().map(leased -> new LeasedJob(shown(leased.job()), leased.lease())).toList());
    }

    // ---- batches -----------------------------------------------------------------------------------

    /** Every item's type is checked before any is created: one outside the scope refuses the batch. */
    public CompletableFuture<List<Added>> createAll(List<NewJob> jobs, CallKey key) {
        jobs.forEach(job -> scope.check(job.type()));
        for (int i = 0; i < jobs.size(); i++) {
            try {
                checkAfter(jobs.get(i).changes());
            } catch (InvalidJobRequestException e) {
                throw InvalidJobRequestException.ofItem(i, e);
            }
        }
        return shownWhenDone(engine.batches().createAll(jobs, key), added -> added.stream().map(this::shown).toList());
    }

    public CompletableFuture<List<ItemResult>> finishAll(List<FinishItem> items) {
        items.forEach(item -> scope.check(item.type()));
        return shownWhenDone(engine.batches().finishAll(items), this::shownResults);
    }

    public CompletableFuture<List<ItemResult>> heartbeatAll(List<HeartbeatItem> items) {
        items.forEach(item -> scope.check(item.type()));
        return shownWhenDone(engine.batches().heartbeatAll(items), this::shownResults);
    }

    // ---- dependencies of types out of scope -------------------------------------------------------

    /**
     * A job named in {@code after} of a type this caller may not see is answered as one that does
     * not exist: the same {@code 400}, so that the answer tells nothing of the other type's jobs.
     */
    private void checkAfter(JobChanges changes) {
        if (scope.isAll() || !changes.after().given() || changes.after().value() == null) {
            return;
        }
        List<JobRef> after = changes.after().value();
        for (int i = 0; i < after.size(); i++) {
            if (after.get(i).type() != null && !scope.permits(after.get(i).type())) {
                throw Dependencies.missing(i, after.get(i));
            }
        }
    }

    /**
     * {@code source}'s result as this caller may see it ({@code shown}); {@code source} itself for a
     * caller who may see everything. Cancelling the answer cancels {@code source}: a resource
     * cancels what it was given when its client hangs up, and a blocked accept or wait must then
     * leave its waiters' list, not hold on until its time is up.
     */
    private <T> CompletableFuture<T> shownWhenDone(CompletionStage<T> source, UnaryOperator<T> shown) {
        CompletableFuture<T> from = source.toCompletableFuture();
        if (scope.isAll()) {
            return from;
        }
        CompletableFuture<T> answer = from.thenApply(shown);
        Futures.whenDone(answer, (done, failure) -> {
            if (answer.isCancelled()) {
                from.cancel(false);
            }
        });
        return answer;
    }

    /** The job as this caller may see it: without dependencies of types out of its scope ({@link Job#narrowed}). */
    private Job shown(Job job) {
        return scope.isAll() || job == null ? job : job.narrowed(scope::permits);
    }

    private Added shown(Added added) {
        return scope.isAll() ? added : new Added(shown(added.job()), added.created());
    }

    private JobPage shown(JobPage page) {
        return scope.isAll() ? page : new JobPage(page.jobs().stream().map(this::shown).toList(), page.next());
    }

    private List<ItemResult> shownResults(List<ItemResult> results) {
        return scope.isAll() ? results
                : results.stream().map(result -> new ItemResult(shown(result.job()), result.halt())).toList();
    }

    // ---- types -------------------------------------------------------------------------------------

    public Optional<TypeInfo> type(String type) {
        scope.check(type);
        return engine.type(type);
    }

    /** @see JobEngine#groups */
    public Optional<GroupPage> groups(String type, int limit, String cursor) {
        scope.check(type);
        return engine.groups(type, limit, cursor);
    }

    /** The types this caller may see, with their counts; the others are left out, not refused. */
    public List<TypeInfo> types() {
        List<TypeInfo> all = engine.types();
        return scope.isAll() ? all : all.stream().filter(info -> scope.permits(info.type())).toList();
    }

    public TypeInfo configureType(String type, UnaryOperator<TypeSettings> change) {
        scope.check(type);
        TypeInfo info = engine.configureType(type, change);
        Audit.log(caller, "configure", type, null, caller + " changed the settings of type " + type);
        return info;
    }

    /** @see JobEngine#deleteType */
    public boolean deleteType(String type) {
        scope.check(type);
        boolean deleted = engine.deleteType(type);
        if (deleted) {
            Audit.log(caller, "delete-type", type, null, caller + " deleted type " + type);
        }
        return deleted;
    }

    public TypeInfo pause(String type, boolean paused) {
        scope.check(type);
        TypeInfo info = engine.pause(type, paused);
        Audit.log(caller, paused ? "pause" : "resume", type, null,
                caller + (paused ? " paused" : " resumed") + " type " + type);
        return info;
    }
}
