package io.jobfoundry.jobs;

import io.jobfoundry.Futures;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionRunner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What an accept round leaves the waiters it could not serve: the ready counters of their types
 * ({@link JobKeys#readyWatch}, {@link JobKeys#anyReadyWatch}), which every commit that makes a job
 * ready adds to. Nothing watches them until {@link #arm} is called, once the round has committed;
 * it gives one future that completes when a job of those types may have become ready since the
 * round read the ready index.
 *
 * <p>The round only reads the counters, as a snapshot; {@link #arm} watches them in a read-only
 * transaction of its own, one for all of them. Not in the round itself: FoundationDB's watch
 * reads the watched key with a read conflict (the read-your-writes layer's watch), and every
 * commit that makes a job ready adds to these counters, so a round that wrote (took a job for one
 * waiter, watched for the next) would conflict with every job becoming ready meanwhile. A
 * snapshot read adds no conflict, and a read-only transaction never conflicts.
 *
 * <p>No job slips by unseen in between: the round reads the counters at its read version, as it
 * reads the ready index. A job made ready after that adds to a counter, which only grows, in a
 * later commit. The arming transaction reads the counters again: if one has moved, such a commit
 * came in between and the future completes at once; if none has, none came before the arming
 * transaction's read version, and its watches, compared with the values at that version, fire for
 * any after it.
 */
final class ReadyWatch {

    /** Nobody is left waiting: {@link #arm} gives a future that never completes. */
    static final ReadyWatch NONE = new ReadyWatch(List.of(), List.of());
    /** A job may already be ready: {@link #arm} gives a completed future. */
    static final ReadyWatch AT_ONCE = new ReadyWatch(List.of(), List.of());

    private final List<byte[]> keys;
    private final List<byte[]> seen;

    private ReadyWatch(List<byte[]> keys, List<byte[]> seen) {
        this.keys = keys;
        this.seen = seen;
    }

    /** Notes the counters at {@code keys} as {@code tx} sees them, without a read conflict. */
    static ReadyWatch read(KvTransaction tx, List<byte[]> keys) {
        List<byte[]> seen = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            seen.add(tx.snapshot().get(key));
        }
        return new ReadyWatch(List.copyOf(keys), seen);
    }

    /**
     * Once the round that read the counters has committed: one future for all of them. It
     * completes at once if a counter has moved, when a store watch fires, or exceptionally when
     * the arming transaction or a store watch fails. Cancelling it lets go of the store's watches.
     */
    CompletableFuture<Void> arm(TransactionRunner runner) {
        if (this == AT_ONCE) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> woken = new CompletableFuture<>();
        if (keys.isEmpty()) {
            return woken;
        }
        runner.runAsync(this::watchUnlessMoved, Sync.ON_COMMIT).whenComplete((watches, failure) -> {
            if (failure != null) {
                woken.completeExceptionally(Futures.cause(failure));
            } else if (watches == null) {
                woken.complete(null);
            } else {
                follow(woken, watches);
            }
        });
        return woken;
    }

    /** The store's watches on the counters, or null if one has moved since the round read it. */
    private List<CompletableFuture<Void>> watchUnlessMoved(KvTransaction tx) {
        for (int i = 0; i < keys.size(); i++) {
            if (!Arrays.equals(tx.snapshot().get(keys.get(i)), seen.get(i))) {
                return null;
            }
        }
        List<CompletableFuture<Void>> watches = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            watches.add(tx.watch(key));
        }
        return watches;
    }

    /** Completes {@code woken} with the first of {@code watches}; letting go of it lets go of them all. */
    private static void follow(CompletableFuture<Void> woken, List<CompletableFuture<Void>> watches) {
        for (CompletableFuture<Void> watch : watches) {
            watch.whenComplete((ignored, failure) -> {
                if (failure == null) {
                    woken.complete(null);
                } else {
                    woken.completeExceptionally(Futures.cause(failure));
                }
            });
        }
        // FDB allows a client only so many watches: those that did not fire are cancelled.
        woken.whenComplete((ignored, failure) -> watches.forEach(Futures::cancel));
    }
}
