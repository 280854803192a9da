package io.jobfoundry.client;

import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A worker runtime: accepts jobs of some types, runs a {@link JobHandler} for each on at most
 * {@code concurrency} threads, keeps their leases alive with heartbeats, and finishes them.
 *
 * <ul>
 *   <li>Each accept asks for as many jobs as there are free threads (up to 100) and waits on the service
 *       (a long poll) when none is due.</li>
 *   <li>Heartbeats go out every {@code heartbeatFraction} (default 1/3) of the type's activity timeout, read from
 *       the service; a handler's {@link JobContext#progress(Object) progress} goes with them.</li>
 *   <li>A halt (the job was cancelled, removed, or its lease lost) interrupts the handler, and the job is never
 *       finished by this worker.</li>
 *   <li>Finishes ready at the same moment go in one batch request.</li>
 *   <li>{@link #shutdown(Duration)} stops accepting, lets running handlers finish within a deadline, sends their
 *       finishes, then stops; jobs still running at the deadline are interrupted and not finished, so they come
 *       back after their activity timeout. Nothing is lost either way.</li>
 * </ul>
 */
public final class Worker implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Worker.class.getName());
    private static final int MAX_ACCEPT = 100;
    private static final Duration ACCEPT_GRACE = Duration.ofSeconds(1);
    private static final AtomicInteger WORKERS = new AtomicInteger();

    private final JobfoundryClient client;
    private final List<String> types;
    private final int concurrency;
    private final JobHandler handler;
    private final Duration acceptWait;
    private final Duration refusedAgain;
    private final String name;
    private final Counters counters = new Counters();
    private final Semaphore slots;
    private final Set<JobContext> running = ConcurrentHashMap.newKeySet();
    // Each job's newest run in this worker, until its finish is answered or it is let go.
    private final ConcurrentHashMap<JobRef, JobContext> runs = new ConcurrentHashMap<>();
    private long accepts; // accept thread only
    private final ExecutorService handlers;
    private final Heartbeats heartbeats;
    private final Finishes finishes;
    private final Thread acceptor;
    private final Thread heartbeatThread;
    private final Thread finishThread;
    private volatile boolean accepting;
    private volatile boolean stopped;
    private volatile boolean inAccept;

    private Worker(Builder b) {
        this.client = b.client;
        this.types = List.copyOf(b.types);
        this.concurrency = b.concurrency;
        this.handler = b.handler;
        this.acceptWait = b.acceptWait;
        this.refusedAgain = b.refusedAgain;
        this.name = b.name != null ? b.name : defaultName();
        this.slots = new Semaphore(concurrency);
        int id = WORKERS.incrementAndGet();
        this.handlers = Executors.newFixedThreadPool(concurrency, threads("jobfoundry-" + id + "-handler-"));
        this.heartbeats = new Heartbeats(client, new TypeTimeouts(client), b.heartbeatFraction, counters);
        this.finishes = new Finishes(client, heartbeats, counters, this::released);
        this.acceptor = thread(this::acceptLoop, "jobfoundry-" + id + "-accept");
        this.heartbeatThread = thread(heartbeats, "jobfoundry-" + id + "-heartbeat");
        this.finishThread = thread(finishes, "jobfoundry-" + id + "-finish");
    }

    /**
     * A builder for a worker.
     *
     * @param client the client it calls the service with
     * @param handler the work to do for each job
     * @param types type names or globs ({@code *}, {@code ?}) to accept; earlier ones are served first
     * @return the builder
     */
    public static Builder builder(JobfoundryClient client, JobHandler handler, String... types) {
        return new Builder(client, handler, List.of(types));
    }

    /**
     * Starts accepting jobs.
     *
     * @return this worker
     */
    public synchronized Worker start() {
        if (accepting || stopped) {
            throw new IllegalStateException("a worker starts once");
        }
        accepting = true;
        heartbeatThread.start();
        finishThread.start();
        acceptor.start();
        return this;
    }

    /** @return the label jobs show as their {@code worker} */
    public String name() {
        return name;
    }

    /** @return what the worker has done so far */
    public WorkerStats stats() {
        return counters.snapshot();
    }

    /**
     * Stops gracefully: no more accepts (an accept on its way gets a second to bring what it took; one still
     * waiting then is abandoned, and the service keeps its jobs), running handlers get until the deadline to
     * return and their finishes are sent; handlers still running then are interrupted and their jobs left to
     * come back after their activity timeout.
     *
     * @param deadline how long running handlers may take
     * @return {@code true} if every accepted job was finished or halted, {@code false} if some were abandoned
     */
    public boolean shutdown(Duration deadline) {
        synchronized (this) {
            if (stopped) {
                return counters.abandoned.get() == 0;
            }
            stopped = true;
            accepting = false;
        }
        long end = System.nanoTime() + deadline.toNanos();
        stopAccepting(Math.min(ACCEPT_GRACE.toNanos(), deadline.toNanos()));
        handlers.shutdown();
        boolean clean = awaitHandlers(end - System.nanoTime());
        if (!clean) {
            for (JobContext job : running) {
                heartbeats.remove(job);
                job.abandon();
            }
            handlers.shutdownNow();
            awaitHandlers(TimeUnit.SECONDS.toNanos(5));
        }
        finishes.drainAndStop(end);
        join(finishThread);
        heartbeats.stop();
        join(heartbeatThread);
        return clean;
    }

    /** Shuts down with a 30-second deadline. */
    @Override
    public void close() {
        shutdown(Duration.ofSeconds(30));
    }

    /**
     * Ends the accept loop. An accept on its way is given a moment to come back with what it took: cutting it
     * while the service is answering would strand the jobs in that answer until their activity timeout. One
     * still out after the grace is waiting with nothing due, and is cut: the service hands no job to a client
     * that hung up.
     */
    private void stopAccepting(long graceNanos) {
        if (inAccept) {
            try {
                acceptor.join(Math.max(1, graceNanos / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        acceptor.interrupt();
        join(acceptor);
    }

    private void acceptLoop() {
        AcceptFailures failures = new AcceptFailures(refusedAgain);
        while (accepting) {
            int free;
            try {
                slots.acquire();
                free = 1 + slots.drainPermits();
            } catch (InterruptedException e) {
                return;
            }
            if (free > MAX_ACCEPT) {
                slots.release(free - MAX_ACCEPT);
                free = MAX_ACCEPT;
            }
            inAccept = true;
            if (!accepting) { // a shutdown that saw inAccept false will interrupt; one that saw it true waits
                slots.release(free);
                return;
            }
            List<LeasedJob> jobs;
            try {
                jobs = client.accept(types, free, acceptWait, name);
                failures.answered();
            } catch (RuntimeException e) {
                // Anything, not only a failed call (an answer that cannot be read, say): a worker whose accept
                // thread died would sit there running nothing, and say nothing.
                inAccept = false;
                slots.release(free);
                if (!accepting || Thread.currentThread().isInterrupted()) {
                    return;
                }
                if (!sleep(failures.failed(e))) {
                    return;
                }
                continue;
            }
            inAccept = false;
            slots.release(free - jobs.size());
            if (!jobs.isEmpty()) {
                counters.acceptCalls.incrementAndGet();
                counters.largestAccept.accumulateAndGet(jobs.size(), Math::max);
            }
            // Jobs an accept brought are run even if a shutdown began meanwhile: they are this worker's now.
            jobs.forEach(this::run);
        }
    }

    private void run(LeasedJob leased) {
        JobContext job = new JobContext(leased, ++accepts);
        counters.accepted.incrementAndGet();
        counters.running.incrementAndGet();
        JobContext older = runs.put(job.job().ref(), job);
        if (older != null) {
            supersede(older);
        }
        running.add(job);
        heartbeats.add(job);
        handlers.execute(() -> handle(job));
    }

    /**
     * The service handed this worker a job it is still running: the older run's lease was lost (an activity
     * timeout, perhaps after an operator shortened it) and only the new lease is valid, as the older run's next
     * heartbeat would be told. Halting it now keeps two handlers of one job from running on, and keeps both
     * leases out of one heartbeat batch, which the service would refuse whole.
     */
    private void supersede(JobContext older) {
        heartbeats.remove(older);
        // A run whose finish is on its way is settled by the finish's answer (a halt: its lease is spent).
        if (!older.finishing && older.halt("lease-lost")) {
            counters.halted.incrementAndGet();
            LOG.log(Level.INFO, "job {0}/{1} was accepted again under a new lease: its older run is halted (lease-lost)",
                    older.job().type(), older.job().id());
        }
    }

    private void released(JobContext job) {
        runs.remove(job.job().ref(), job);
    }

    private void handle(JobContext job) {
        Finish finish = null;
        try {
            job.enter();
            try {
                // A halt that came before the handler started interrupted nobody: do not start it at all.
                if (!job.isHalted() && !job.abandoned()) {
                    Object result = handler.handle(job);
                    // Written now, on the handler's thread: a result the service cannot take fails the job
                    // (caught below, with the reason as its error) instead of the finish thread.
                    finish = Finish.succeeded(job.leasedJob(), result == null ? null : Json.jobData(result,
                            "the handler's result"));
                }
            } finally {
                job.leave();
            }
        } catch (Throwable t) {
            String message = t.getMessage() != null ? t.getMessage() : t.getClass().getName();
            if (t instanceof Error && !(t instanceof AssertionError)) {
                LOG.log(Level.ERROR, "handler of " + job.job().type() + "/" + job.job().id() + " failed", t);
            } else if (!job.isHalted() && !job.abandoned()) {
                // The job's lastError keeps the message only: where it came from is here.
                LOG.log(Level.WARNING, "job " + job.job().type() + "/" + job.job().id() + " failed: " + message, t);
            }
            finish = Finish.failed(job.leasedJob(), message);
        } finally {
            running.remove(job);
            slots.release();
            if (job.isHalted() || job.abandoned() || finish == null) {
                // Halted: the service said to stop, so no outcome of ours counts. Abandoned: the job comes back.
                heartbeats.remove(job);
                released(job);
                counters.running.decrementAndGet();
                if (job.abandoned() && !job.isHalted()) {
                    counters.abandoned.incrementAndGet();
                }
            } else {
                job.finishing = true;
                finishes.submit(job, finish);
            }
        }
    }

    private boolean awaitHandlers(long nanos) {
        try {
            return handlers.awaitTermination(Math.max(0, nanos), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    /**
     * The handlers' threads, daemons: the accept, heartbeat and finish threads keep the JVM alive while the
     * worker runs, and a handler that ignores its interrupt must not keep it alive after a shutdown gave it up.
     */
    private static ThreadFactory threads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** A thread of the worker's own: should one die after all, it says so in the log rather than on stderr alone. */
    private static Thread thread(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setUncaughtExceptionHandler((dead, e) -> LOG.log(Level.ERROR, "worker thread " + dead.getName() + " died", e));
        return t;
    }

    private static String defaultName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        return host + "/" + ProcessHandle.current().pid();
    }

    /** Builds a {@link Worker}. */
    public static final class Builder {

        private final JobfoundryClient client;
        private final JobHandler handler;
        private final List<String> types;
        private int concurrency = 4;
        private double heartbeatFraction = 1.0 / 3;
        private Duration acceptWait = Duration.ofSeconds(30);
        private Duration refusedAgain = AcceptFailures.REFUSED_AGAIN;
        private String name;

        private Builder(JobfoundryClient client, JobHandler handler, List<String> types) {
            this.client = Objects.requireNonNull(client, "client");
            this.handler = Objects.requireNonNull(handler, "handler");
            if (types.isEmpty()) {
                throw new IllegalArgumentException("name at least one type or glob");
            }
            this.types = types;
        }

        /**
         * @param concurrency jobs handled at once (default 4)
         * @return this builder
         */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be at least 1");
            }
            this.concurrency = concurrency;
            return this;
        }

        /**
         * @param fraction heartbeat interval as a fraction of the type's activity timeout, in (0, 1); default 1/3,
         *     so that two heartbeats in a row may be lost before the job times out
         * @return this builder
         */
        public Builder heartbeatFraction(double fraction) {
            if (!(fraction > 0 && fraction < 1)) {
                throw new IllegalArgumentException("heartbeatFraction must be between 0 and 1");
            }
            this.heartbeatFraction = fraction;
            return this;
        }

        /**
         * @param wait how long one accept waits on the service for a job (default 30 s, at most 5 min)
         * @return this builder
         */
        public Builder acceptWait(Duration wait) {
            // The service refuses 1 to 99 ms as a unit mistaken (seconds meant as milliseconds).
            if (wait.isNegative() || wait.compareTo(JobfoundryClient.MAX_SERVER_WAIT) > 0
                    || !wait.isZero() && wait.toMillis() < 100) {
                throw new IllegalArgumentException("acceptWait must be 0, or between 100 ms and 5 minutes");
            }
            this.acceptWait = wait;
            return this;
        }

        /**
         * @param name the label jobs show as their {@code worker} (default host/pid)
         * @return this builder
         */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** For the tests: how long after a refused accept the next one goes ({@link AcceptFailures}). */
        Builder refusedAgain(Duration pause) {
            this.refusedAgain = pause;
            return this;
        }

        /** @return the worker, not yet started */
        public Worker build() {
            return new Worker(this);
        }
    }
}
