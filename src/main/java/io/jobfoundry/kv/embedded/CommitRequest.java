package io.jobfoundry.kv.embedded;

import io.jobfoundry.kv.TransactionBody;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** A transaction waiting for the committer, and the caller's handle on its outcome. */
final class CommitRequest<T> {

    private static final int QUEUED = 0;
    private static final int STARTED = 1;
    private static final int ABANDONED = 2;

    final TransactionBody<T> body;
    final long deadlineNanos;
    final boolean deferSync;
    final CompletableFuture<T> outcome = new CompletableFuture<>();
    private final AtomicInteger state = new AtomicInteger(QUEUED);

    /** Set by the committer while the batch is open. */
    EmbeddedTransaction tx;
    T value;
    boolean succeeded;
    /** What the body threw; answered in commit order like a value, since it may rest on earlier writes. */
    Throwable failure;

    CommitRequest(TransactionBody<T> body, long deadlineNanos, boolean deferSync) {
        this.body = body;
        this.deadlineNanos = deadlineNanos;
        this.deferSync = deferSync;
    }

    /** The committer takes the request; false if the caller already gave up on it. */
    boolean start() {
        return state.compareAndSet(QUEUED, STARTED);
    }

    /** The caller gives up; true if the committer had not taken it, so it never runs. */
    boolean abandon() {
        return state.compareAndSet(QUEUED, ABANDONED);
    }
}
