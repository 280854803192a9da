package io.jobfoundry.jobs;

import io.jobfoundry.Futures;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.Sync;
import io.jobfoundry.kv.TransactionRunner;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * The watch an accept round leaves for its waiters on a ready counter ({@link JobKeys#readyWatch},
 * {@link JobKeys#anyReadyWatch}): completes when a job of their types may have become ready since
 * the round read the ready index. The round only reads the counter; the watch is armed after the
 * round has committed, in a read-only transaction of its own ({@link #arm}).
 *
 * <p>Not in the round itself: FoundationDB's watch reads the watched key with a read conflict
 * (the read-your-writes layer's watch), and every commit that makes a job ready adds to that
 * counter, so a round that wrote (took a job for one waiter, armed a watch for the next) would
 * conflict with every job becoming ready meanwhile. A snapshot read adds no conflict, and a
 * read-only transaction never conflicts.
 *
 * <p>No job slips by unseen in between: the round reads the counter at its read version, as it
 * reads the ready index. A job made ready after that adds to the counter, which only grows, in a
 * later commit. The arming transaction reads the counter again: if it has moved, such a commit came
 * in between and the watch completes at once; if not, none came before the arming transaction's
 * read version, and the watch, compared with the value at that version, fires for any after it.
 */
final class ReadyWatch extends CompletableFuture<Void> {

    private final byte[] key;
    private final byte[] seen;

    private ReadyWatch(byte[] key, byte[] seen) {
        this.key = key;
        this.seen = seen;
    }

    /** Notes the counter at {@code key} as {@code tx} sees it, without a read conflict. */
    static ReadyWatch read(KvTransaction tx, byte[] key) {
        return new ReadyWatch(key, tx.snapshot().get(key));
    }

    /**
     * Once the round that read the counter has committed: arms the watch, or completes at once if
     * the counter has moved. Does nothing if the watch was let go of already. Completes
     * exceptionally if the arming transaction or the store's watch fails.
     */
    void arm(TransactionRunner runner) {
        if (isDone()) {
            return;
        }
        CompletableFuture<CompletableFuture<Void>> armed;
        try {
            armed = runner.runAsync(tx -> Arrays.equals(tx.get(key), seen) ? tx.watch(key) : null, Sync.ON_COMMIT);
        } catch (RuntimeException e) {
            completeExceptionally(e);
            return;
        }
        armed.whenComplete((watch, failure) -> {
            if (failure != null) {
                completeExceptionally(Futures.cause(failure));
            } else if (watch == null) {
                complete(null);
            } else {
                follow(watch);
            }
        });
    }

    private void follow(CompletableFuture<Void> watch) {
        watch.whenComplete((ignored, failure) -> {
            if (failure == null) {
                complete(null);
            } else {
                completeExceptionally(Futures.cause(failure));
            }
        });
        // Letting go of this lets go of the store's watch: FDB allows a client only so many.
        whenComplete((ignored, failure) -> watch.cancel(false));
    }
}
