package io.jobfoundry.jobs;

import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.GroupPage;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.TypeInfo;
import io.jobfoundry.jobs.model.TypeInUseException;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.jobs.records.Groups;
import io.jobfoundry.jobs.records.JobKeys;
import io.jobfoundry.jobs.records.JobRecord;
import io.jobfoundry.jobs.records.Slots;
import io.jobfoundry.jobs.records.Tokens;
import io.jobfoundry.jobs.records.TypeCounts;
import io.jobfoundry.jobs.records.TypeRegistry;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionRunner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * The engine's calls on types rather than jobs: their settings, pause, deletion, counts, oldest
 * due time and groups. Each is one transaction over the type registry and the counters;
 * {@link JobEngine} offers them.
 */
final class JobTypes {

    private static final Logger LOG = Logger.getLogger(JobTypes.class);

    private final EngineContext context;
    private final TransactionRunner runner;

    JobTypes(EngineContext context) {
        this.context = context;
        this.runner = context.runner();
    }

    TypeInfo configureType(String type, TypeSettings settings) {
        return configureType(type, current -> settings);
    }

    /**
     * Changes a type's settings from its current ones (the defaults for a type not yet used), in
     * one transaction, so concurrent partial changes cannot undo each other.
     */
    TypeInfo configureType(String type, UnaryOperator<TypeSettings> change) {
        TypeNames.checkType(type);
        long now = context.now();
        return runner.run(tx -> {
            TypeSettings current = TypeRegistry.find(tx, type);
            TypeSettings before = current == null ? TypeSettings.DEFAULT : current;
            TypeSettings settings = change.apply(before);
            TypeRegistry.put(tx, type, settings);
            // Jobs already running take permits of a new limit; a raised one wakes blocked accepts.
            Slots.settingsChanged(tx, type, before, settings);
            // Snapshot: every job transition adds to these counters; a conflicting read of them
            // would fail this write under any traffic on the type (FDB), for figures only shown.
            return new TypeInfo(type, settings, TypeCounts.of(tx.snapshot(), type), TypeRegistry.lookup(tx, type).paused(),
                    TypeCounts.oldestDueAt(tx.snapshot(), type, now));
        });
    }

    /**
     * Pauses or resumes a type (registering it with the defaults if it is new): a paused type hands
     * out no job, on any replica, while everything else goes on. Blocked accepts keep waiting; a
     * resume wakes them, here and on every replica, as a job made ready would.
     */
    TypeInfo pause(String type, boolean paused) {
        TypeNames.checkType(type);
        long now = context.now();
        TypeInfo info = runner.run(tx -> {
            TypeRegistry.Registered registered = TypeRegistry.setPaused(tx, type, paused);
            if (!paused) {
                JobRecord.announceReady(tx, type);
            }
            return new TypeInfo(type, registered.settings(), TypeCounts.of(tx.snapshot(), type), paused,
                    TypeCounts.oldestDueAt(tx.snapshot(), type, now));
        });
        LOG.infof("type %s %s", type, paused ? "paused: accepts hand out none of its jobs" : "resumed");
        return info;
    }

    /**
     * Deletes a type no job uses ({@link TypeRegistry#remove}), in one transaction; answers false
     * for a type never used or configured.
     *
     * @throws TypeInUseException while any job of the type exists, finished ones kept by retention
     *     included
     */
    boolean delete(String type) {
        TypeNames.checkType(type);
        long now = context.now();
        // As a job's removal: a committed attempt leaves an outcome under this nonce, by which a
        // retry (after commit_unknown_result) knows the type is gone by its own hand.
        byte[] outcome = JobKeys.outcome(now, Tokens.next());
        boolean deleted = runner.run(tx -> {
            if (tx.get(outcome) != null) {
                return true;
            }
            if (TypeRegistry.lookup(tx, type) == null) {
                return false;
            }
            // Not a snapshot: a job added meanwhile, on any replica, writes into this range, so one
            // of the two transactions retries, and a job is never left behind without its type.
            if (!tx.getRange(JobKeys.jobsBegin(type), JobKeys.jobsEnd(type), 1).isEmpty()) {
                throw new TypeInUseException(type, TypeCounts.of(tx.snapshot(), type));
            }
            TypeRegistry.remove(tx, type);
            tx.set(outcome, new byte[0]);
            return true;
        });
        if (deleted) {
            LOG.infof("type %s deleted", type);
        }
        return deleted;
    }

    Optional<TypeInfo> type(String type) {
        TypeNames.checkType(type);
        long now = context.now();
        return Optional.ofNullable(runner.run(tx -> {
            TypeRegistry.Registered registered = TypeRegistry.lookup(tx, type);
            return registered == null ? null
                    : new TypeInfo(type, registered.settings(), TypeCounts.of(tx, type), registered.paused(),
                            TypeCounts.oldestDueAt(tx, type, now));
        }));
    }

    /**
     * The settings of every type delivered by push, in name order: one read of the type registry,
     * without the counts {@link #types()} adds, for whatever pushes to look at often.
     */
    CompletableFuture<Map<String, TypeSettings>> pushTypesAsync() {
        return runner.runAsync(tx -> {
            Map<String, TypeSettings> push = new LinkedHashMap<>();
            TypeRegistry.settingsOfAll(tx).forEach((type, settings) -> {
                if (settings.push() != null) {
                    push.put(type, settings);
                }
            });
            return push;
        }, Sync.ON_COMMIT);
    }

    /**
     * The fairness groups of a type that have pending or running jobs, in name order, with their
     * counts; empty if the type was never used. A page may hold fewer than {@code limit} groups
     * while {@code next} is not null.
     */
    Optional<GroupPage> groups(String type, int limit, String cursor) {
        TypeNames.checkType(type);
        if (limit < 1 || limit > 1000) {
            throw new InvalidJobRequestException("limit", "limit must be within 1..1000");
        }
        String after = cursor == null ? null : Groups.decodeCursor(cursor);
        return Optional.ofNullable(runner.run(tx -> TypeRegistry.lookup(tx, type) == null ? null
                // A snapshot: every move of the type's jobs adds to these counters.
                : Groups.page(tx.snapshot(), type, limit, after)));
    }

    List<TypeInfo> types() {
        long now = context.now();
        return runner.run(tx -> {
            Map<String, Counts> counts = TypeCounts.ofEveryType(tx);
            List<TypeInfo> infos = new ArrayList<>();
            for (Map.Entry<String, TypeRegistry.Registered> entry : TypeRegistry.all(tx).entrySet()) {
                String type = entry.getKey();
                infos.add(new TypeInfo(type, entry.getValue().settings(), counts.getOrDefault(type, Counts.NONE),
                        entry.getValue().paused(), TypeCounts.oldestDueAt(tx, type, now)));
            }
            return infos;
        });
    }
}
