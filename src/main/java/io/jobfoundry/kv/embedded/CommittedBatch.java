package io.jobfoundry.kv.embedded;

import io.jobfoundry.kv.RetryableStoreException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * A batch SQLite has committed and the {@link Acknowledger} has yet to make durable and answer.
 * Everything it needs from the store is read on the committer at commit time (the committed
 * values of the watched keys it changed), so acknowledging never touches the SQLite connection.
 *
 * @param answered    the requests to answer, in commit order: those whose bodies succeeded, and
 *                    those whose bodies threw (what a body throws may rest on what earlier, not
 *                    yet synced batches wrote, so it waits its turn too)
 * @param needsSync   whether any of them must be on disk before it is acknowledged
 * @param watchValues the committed value of every watched key the batch changed ({@code null}: absent)
 */
record CommittedBatch(List<CommitRequest<?>> answered, boolean needsSync, Map<ByteBuffer, byte[]> watchValues) {

    /** Bodies that threw in a batch that could not be written: nothing to sync, only to answer in turn. */
    static CommittedBatch failedBodies(List<CommitRequest<?>> requests) {
        return new CommittedBatch(requests, false, Map.of());
    }

    void acknowledge(WatchRegistry watches) {
        for (CommitRequest<?> request : answered) {
            if (request.failure != null) {
                request.outcome.completeExceptionally(request.failure);
            } else {
                request.tx.settleVersionstamp();
                complete(request);
            }
        }
        fireWatches(watches);
    }

    /** The log could not be synced: the batch is in SQLite but perhaps not on disk. */
    void failUnknown(WatchRegistry watches, String storeName, Throwable cause) {
        RetryableStoreException unknown =
                new RetryableStoreException(RetryableStoreException.Reason.COMMIT_UNKNOWN, storeName, cause);
        for (CommitRequest<?> request : answered) {
            if (request.failure == null) {
                request.tx.failVersionstamp(unknown);
                request.tx.watches().forEach(watch -> watches.disarm(watch, unknown));
            }
            request.outcome.completeExceptionally(unknown);
        }
        // Later transactions read what this batch wrote; a watcher woken for nothing only re-reads.
        fireWatches(watches);
    }

    private void fireWatches(WatchRegistry watches) {
        if (!watchValues.isEmpty()) {
            List<byte[]> keys = watchValues.keySet().stream().map(ByteBuffer::array).toList();
            watches.fireChanged(keys, key -> watchValues.get(ByteBuffer.wrap(key)));
        }
    }

    private static <T> void complete(CommitRequest<T> request) {
        request.outcome.complete(request.value);
    }
}
