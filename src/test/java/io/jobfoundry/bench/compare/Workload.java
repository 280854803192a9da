package io.jobfoundry.bench.compare;

import java.time.Duration;

/**
 * The one workload every system runs: {@code producers} connections create {@code jobs} no-op jobs
 * between them while {@code workers} workers each loop fetch → complete, both at once. Every run
 * is bounded: it stops at {@code limit} whatever is left.
 */
public record Workload(int jobs, int producers, int workers, Duration limit) {

    public Workload {
        if (jobs < 1 || producers < 1 || workers < 1) {
            throw new IllegalArgumentException("jobs, producers and workers must be at least 1");
        }
    }

    /** The same workload with another job count (the warm-up run). */
    public Workload withJobs(int count) {
        return new Workload(count, producers, workers, limit);
    }
}
