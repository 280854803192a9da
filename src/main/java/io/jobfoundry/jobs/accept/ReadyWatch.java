package io.jobfoundry.jobs.accept;

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
 * ({@code JobKeys.readyWatch}, {@code JobKeys.anyReadyWatch}), which every commit that makes a job
 * ready adds to. Once the round has committed, {@link #arm} gives one future that completes when a
 * job of those types may have become ready since the round read the ready index.
 *
 * <p>Where the store's watches are set depends on whether the round wrote. FoundationDB's watch
 * reads the watched key with a read conflict (the read-your-writes layer's watch), and these
 * counters move with every job made ready:
 * <ul>
 * <li>A round that wrote nothing (it took no job and cleared no group) sets them in its own
 *     transaction ({@link #of}). FoundationDB never checks a read-only transaction for conflicts,
 *     so this costs nothing: no transaction beyond the round.
 * <li>A round that wrote (took jobs for some of its waiters, cleared empty groups) must not: it
 *     would conflict with every job made ready while it ran. It only reads the counters, as a
 *     snapshot; {@link #arm} then reads them again and watches them all in one read-only
 *     transaction.
 * </ul>
 *
 * <p>No job slips by unseen either way. The round reads the counters at its read version, as it
 * reads the ready index, and a job made ready after that adds to a counter, which only grows, in
 * a later commit. A watch set in the round compares with the value at the round's read version,
 * so it fires for any such commit. The arming transaction compares each counter with what the
 * round read: if one has moved, such a commit came in between and the future completes at once; if
 * none has, none came before the arming transaction's read version, and its watches, compared with
 * the values at that version, fire for any after it.
 */
public final class ReadyWatch {

    /** Nobody is left waiting: {@link #arm} gives a future that never completes. */
    public static final ReadyWatch NONE = new ReadyWatch(List.of(), null, List.of());
    /** A job may already be ready: {@link #arm} gives a completed future. */
    public static final ReadyWatch AT_ONCE = new ReadyWatch(List.of(), null, List.of());

    private final List<byte[]> keys;
    /** What the round read of each counter, to compare when arming; null if it set the watches. */
    private final List<byte[]> seen;
    /** The store's watches the round set itself; null if it only read the counters. */
    private final List<CompletableFuture<Void>> watches;

    private ReadyWatch(List<byte[]> keys, List<byte[]> seen, List<CompletableFuture<Void>> watches) {
        this.keys = keys;
        this.seen = seen;
        this.watches = watches;
    }

    /**
     * The counters at {@code keys}, for the round running in {@code tx}: watched at once if the
     * round {@code wrote} nothing, else read without a read conflict, to be watched once it has
     * committed.
     */
    static ReadyWatch of(KvTransaction tx, List<byte[]> keys, boolean wrote) {
        List<byte[]> own = List.copyOf(keys);
        if (!wrote) {
            return new ReadyWatch(own, null, watch(tx, own));
        }
        List<byte[]> seen = new ArrayList<>(own.size());
        for (byte[] key : own) {
            seen.add(tx.snapshot().get(key));
        }
        return new ReadyWatch(own, seen, null);
    }

    /**
     * Once the round has committed: one future for all the counters. It completes when a store
     * watch fires or a counter has already moved, exceptionally when the arming transaction or a
     * store watch fails. Cancelling it lets go of the store's watches.
     */
    public CompletableFuture<Void> arm(TransactionRunner runner) {
        if (this == AT_ONCE) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> woken = new CompletableFuture<>();
        if (watches != null) {
            follow(woken, watches);
            return woken;
        }
        Futures.whenDone(runner.runAsync(this::watchUnlessMoved, Sync.ON_COMMIT), (armed, failure) -> {
            if (failure != null) {
                woken.completeExceptionally(Futures.cause(failure));
            } else if (armed == null) {
                woken.complete(null);
            } else {
                follow(woken, armed);
            }
        });
        return woken;
    }

    /** Instead of {@link #arm}, when nobody is left to wake: lets go of the watches the round set. */
    public void release() {
        if (watches != null) {
            watches.forEach(Futures::cancel);
        }
    }

    /** The store's watches on the counters, or null if one has moved since the round read it. */
    private List<CompletableFuture<Void>> watchUnlessMoved(KvTransaction tx) {
        for (int i = 0; i < keys.size(); i++) {
            if (!Arrays.equals(tx.snapshot().get(keys.get(i)), seen.get(i))) {
                return null;
            }
        }
        return watch(tx, keys);
    }

    private static List<CompletableFuture<Void>> watch(KvTransaction tx, List<byte[]> keys) {
        List<CompletableFuture<Void>> watches = new ArrayList<>(keys.size());
        for (byte[] key : keys) {
            watches.add(tx.watch(key));
        }
        return watches;
    }

    /** Completes {@code woken} with the first of {@code watches}; letting go of it lets go of them all. */
    private static void follow(CompletableFuture<Void> woken, List<CompletableFuture<Void>> watches) {
        for (CompletableFuture<Void> watch : watches) {
            Futures.whenDone(watch, (ignored, failure) -> {
                if (failure == null) {
                    woken.complete(null);
                } else {
                    woken.completeExceptionally(Futures.cause(failure));
                }
            });
        }
        // FDB allows a client only so many watches: those that did not fire are cancelled.
        Futures.whenDone(woken, (ignored, failure) -> watches.forEach(Futures::cancel));
    }
}
