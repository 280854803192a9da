package io.jobfoundry.bench.compare;

import java.time.Duration;
import java.util.Locale;

/**
 * The workload every system runs: {@code producers} connections create {@code jobs} no-op jobs
 * between them while {@code workers} workers each loop fetch → complete, both at once. Every run
 * is bounded: it stops at {@code limit} whatever is left. The {@link Shape} says how many jobs
 * each call carries.
 */
public record Workload(Shape shape, int jobs, int producers, int workers, Duration limit) {

    /**
     * How the work is cut into calls. {@code single}: one job per create, fetch and complete, the
     * way a plain integration uses every system. {@code bulk}: what users with volume do, each
     * through the system's own bulk path — creates in batches of {@link #createBatch}, fetches of
     * up to {@link #fetchMax} jobs, and the fetched jobs completed together.
     */
    public enum Shape {
        SINGLE(1, 1),
        BULK(100, 16);

        /** Jobs per create call (the last one of a producer may be smaller). */
        public final int createBatch;
        /** Jobs a worker takes at most per fetch, and completes in one go. */
        public final int fetchMax;

        Shape(int createBatch, int fetchMax) {
            this.createBatch = createBatch;
            this.fetchMax = fetchMax;
        }

        /** {@code single} or {@code bulk}, as {@code WORKLOAD} and {@code results.jsonl} spell it. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Shape parse(String id) {
            for (Shape shape : values()) {
                if (shape.id().equals(id)) {
                    return shape;
                }
            }
            throw new IllegalArgumentException("workload: single | bulk, not " + id);
        }
    }

    public Workload {
        if (jobs < 1 || producers < 1 || workers < 1) {
            throw new IllegalArgumentException("jobs, producers and workers must be at least 1");
        }
    }

    /** The same workload with another job count (the warm-up run). */
    public Workload withJobs(int count) {
        return new Workload(shape, count, producers, workers, limit);
    }
}
