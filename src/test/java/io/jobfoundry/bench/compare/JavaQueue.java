package io.jobfoundry.bench.compare;

import java.io.IOException;
import java.util.OptionalLong;

/**
 * A job system driven from Java, one connection per producer and per worker. A worker holds at
 * most one job at a time, as every system here is run ({@code max=1}, one reserve, concurrency
 * one per worker).
 */
interface JavaQueue {

    Producer producer() throws IOException;

    Worker worker(int index) throws IOException;

    /** Creates jobs; each carries the time it was created at. */
    interface Producer extends AutoCloseable {
        void create(long createdNanos) throws IOException;

        @Override
        void close();
    }

    /** Fetches and completes jobs, one at a time. */
    interface Worker extends AutoCloseable {
        /**
         * Waits up to {@code waitMillis} for a job and holds it; answers its creation time, or
         * empty when none came.
         */
        OptionalLong fetch(int waitMillis) throws IOException;

        /** Completes (deletes, finishes) the job that {@link #fetch} answered last. */
        void complete() throws IOException;

        @Override
        void close();
    }
}
