package io.jobfoundry.kv.embedded;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * The second half of group commit: makes committed batches durable and acknowledges them in the
 * order they committed, while the committer already runs the next batch. Waiting for the disk was
 * half of the committer's time; now a sync overlaps the next batch's work, and one sync covers
 * every batch written before it.
 *
 * <p>A batch is acknowledged only once it and every batch before it are on disk. Batches read
 * what earlier, not yet synced batches wrote, so answering out of order could hand a caller a
 * result built on a write that a power cut then undoes. A batch of deferrable commits only needs
 * no sync of its own, but it still waits for the sync of the batches before it.
 *
 * <p>A lone commit (a batch of one, with no transaction waiting behind it, and no batch handed
 * here still waiting) the committer acknowledges itself, sync included: at low load a hand-over to
 * this thread would only add a thread wake-up to every commit. It answers a batch with nothing to
 * sync (reads, leases, heartbeats) itself too, again only when no batch handed here still waits.
 * A larger batch to sync comes from concurrent clients, whose next requests are likely on their
 * way, so its sync comes here and the committer stays free for them. With durability {@code os}
 * there is nothing to sync, and the committer answers every batch itself.
 * Whoever holds {@link #acknowledging} drains the queue to the end, so acknowledgements never
 * overtake one another.
 *
 * <p>A failed sync is not retried: after a failed {@code fsync} Linux may have dropped the dirty
 * pages it could not write and report the next sync clean (PostgreSQL's "fsyncgate"). The batches
 * it covered fail as commit-unknown, and {@code onSyncFailure} stops the store taking more
 * work; a restart recovers from what the log really holds.
 */
final class Acknowledger implements Runnable {

    private static final Logger LOG = Logger.getLogger(Acknowledger.class);
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final LogSync log;
    private final WatchRegistry watches;
    private final String storeName;
    private final Consumer<IOException> onSyncFailure;
    private final Queue<CommittedBatch> committed = new ConcurrentLinkedQueue<>();
    private final ReentrantLock acknowledging = new ReentrantLock();
    private final AtomicLong syncs = new AtomicLong();
    private final Thread thread;
    private volatile boolean closing;
    /** Set by the first failed sync; from then on nothing is acknowledged as committed. */
    private IOException syncFailure;

    Acknowledger(LogSync log, WatchRegistry watches, String storeName, Consumer<IOException> onSyncFailure) {
        this.log = log;
        this.watches = watches;
        this.storeName = storeName;
        this.onSyncFailure = onSyncFailure;
        this.thread = new Thread(this, "jobfoundry-embedded-acknowledger");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /**
     * Takes a batch the committer has just committed. With {@code inline} the calling thread
     * acknowledges it at once, unless batches handed to this thread before are still waiting or an
     * acknowledgement is under way: this thread's own then picks it up with them.
     */
    void committed(CommittedBatch batch, boolean inline) {
        // The committer is the only thread that adds, so nothing is added between here and below.
        // A batch handed over before and not yet taken is not pulled back to sync on the committer.
        boolean nothingWaiting = committed.isEmpty();
        committed.add(batch);
        if (inline && nothingWaiting && acknowledging.tryLock()) {
            try {
                drain();
            } finally {
                acknowledging.unlock();
            }
        } else {
            // An unpark before the park is kept as a permit, so this wake-up cannot be lost.
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void run() {
        while (!closing) {
            LockSupport.parkNanos(this, IDLE_PARK_NANOS);
            drainLocked();
        }
        drainLocked();
    }

    /** Acknowledges what is committed, then stops; call after the committer has stopped. */
    void close() throws InterruptedException {
        closing = true;
        LockSupport.unpark(thread);
        thread.join(TimeUnit.SECONDS.toMillis(30));
    }

    boolean onItsThread() {
        return Thread.currentThread() == thread;
    }

    /** Syncs of the log made so far (durability {@code fsync}). */
    long syncs() {
        return syncs.get();
    }

    private void drainLocked() {
        acknowledging.lock();
        try {
            drain();
        } finally {
            acknowledging.unlock();
        }
    }

    private void drain() {
        List<CommittedBatch> batches = new ArrayList<>();
        while (true) {
            for (CommittedBatch batch; (batch = committed.poll()) != null; ) {
                batches.add(batch);
            }
            if (batches.isEmpty()) {
                return;
            }
            if (syncFailure == null && batches.stream().anyMatch(CommittedBatch::needsSync)) {
                sync();
            }
            for (CommittedBatch batch : batches) {
                answer(batch);
            }
            batches.clear();
        }
    }

    /** Answers one batch; whatever goes wrong in it, the batches after it are still answered. */
    private void answer(CommittedBatch batch) {
        try {
            if (syncFailure == null) {
                batch.acknowledge(watches);
            } else {
                batch.failUnknown(watches, storeName, syncFailure);
            }
        } catch (RuntimeException | Error e) {
            // A defect, not a store failure: callers whose futures are still open time out.
            LOG.errorf(e, "acknowledging a committed batch of %s failed", storeName);
        }
    }

    private void sync() {
        try {
            log.sync();
            syncs.incrementAndGet();
        } catch (IOException e) {
            syncFailure = e;
            onSyncFailure.accept(e);
        } catch (RuntimeException e) {
            syncFailure = new IOException("syncing the log failed", e);
            onSyncFailure.accept(syncFailure);
        }
    }
}
