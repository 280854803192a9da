package io.jobfoundry.bench.compare;

import java.io.IOException;

/**
 * A job system driven from Java, one connection per producer and per worker. How many jobs a
 * call carries is the {@link Workload.Shape}'s: one each in {@code single} (a worker holds at most
 * one job: {@code max=1}, one reserve), batches in {@code bulk}, each system through its own bulk
 * path.
 */
interface JavaQueue {

    Producer producer() throws IOException;

    Worker worker(int index) throws IOException;

    /** Creates jobs; each carries the time it was created at. */
    interface Producer extends AutoCloseable {
        /** Creates one job per element of {@code createdNanos}, stamped with it, in as few calls as the system allows. */
        void create(long[] createdNanos) throws IOException;

        @Override
        void close();
    }

    /** Fetches jobs and completes them. */
    interface Worker extends AutoCloseable {
        /**
         * Waits up to {@code waitMillis} for a job, takes up to {@code max} and holds them;
         * answers their creation times, none when no job came.
         */
        long[] fetch(int max, int waitMillis) throws IOException;

        /** Completes (deletes, finishes) every job that {@link #fetch} answered last. */
        void complete() throws IOException;

        @Override
        void close();
    }
}
