package io.jobfoundry.jobs.context;

/**
 * Tuning of the engine.
 *
 * @param acceptWindow how many of the oldest ready jobs of a class accept looks at and picks one of
 *                     at random: 1 keeps strict oldest-first order (right for the embedded store,
 *                     which serializes transactions anyway); larger windows spread concurrent
 *                     accepts over different keys on FoundationDB so they do not all conflict on
 *                     the head of the queue (couch_jobs' random-start dequeue)
 * @param maxDataBytes the largest serialized {@code data} of a job
 */
public record EngineOptions(int acceptWindow, int maxDataBytes) {

    public static final EngineOptions DEFAULT = new EngineOptions(1, 64 * 1024);

    /** The accept window for a store whose transactions run at once (FoundationDB). */
    public static final int CONCURRENT_ACCEPT_WINDOW = 16;

    /** These options for a store whose transactions run at once: accepts spread over the head of the queue. */
    public EngineOptions forConcurrentStore() {
        return new EngineOptions(CONCURRENT_ACCEPT_WINDOW, maxDataBytes);
    }

    /**
     * Whether these are options for a store whose transactions run at once ({@link #forConcurrentStore}):
     * accepts then spread over the head of the queue, and a hand-off takes only the job its
     * transaction adds (Accepting#addAndHandOff).
     */
    public boolean concurrentStore() {
        return acceptWindow > 1;
    }

    public EngineOptions {
        if (acceptWindow < 1 || acceptWindow > 100) {
            throw new IllegalArgumentException("acceptWindow must be within 1..100");
        }
        // A record holds the data, its error text and bookkeeping within FoundationDB's 100 KB value limit.
        if (maxDataBytes < 0 || maxDataBytes > 80_000) {
            throw new IllegalArgumentException("maxDataBytes must be within 0..80000");
        }
    }
}
