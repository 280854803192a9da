package io.jobfoundry.client;

import java.util.concurrent.atomic.AtomicLong;

/** A worker's counters, updated by its threads and read as one {@link WorkerStats}. */
final class Counters {

    final AtomicLong accepted = new AtomicLong();
    final AtomicLong running = new AtomicLong();
    final AtomicLong succeeded = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong halted = new AtomicLong();
    final AtomicLong abandoned = new AtomicLong();
    final AtomicLong lostFinishes = new AtomicLong();
    final AtomicLong acceptCalls = new AtomicLong();
    final AtomicLong largestAccept = new AtomicLong();
    final AtomicLong finishCalls = new AtomicLong();
    final AtomicLong finishBatches = new AtomicLong();
    final AtomicLong largestFinishBatch = new AtomicLong();
    final AtomicLong heartbeatCalls = new AtomicLong();
    final AtomicLong heartbeatBatches = new AtomicLong();

    WorkerStats snapshot() {
        return new WorkerStats(accepted.get(), running.get(), succeeded.get(), failed.get(), halted.get(),
                abandoned.get(), lostFinishes.get(), acceptCalls.get(), largestAccept.get(), finishCalls.get(),
                finishBatches.get(), largestFinishBatch.get(), heartbeatCalls.get(), heartbeatBatches.get());
    }
}
