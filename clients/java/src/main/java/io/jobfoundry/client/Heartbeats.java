package io.jobfoundry.client;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sends heartbeats for a worker's running jobs on one thread: each job every {@code fraction} of its type's
 * activity timeout. Jobs due about together go in one {@code POST /v1/heartbeat}; a halt in the answer halts
 * that job's handler.
 */
final class Heartbeats implements Runnable {

    private static final System.Logger LOG = System.getLogger(Heartbeats.class.getName());
    private static final int MAX_BATCH = 1000;

    private final JobfoundryClient client;
    private final TypeTimeouts timeouts;
    private final double fraction;
    private final Counters counters;
    private final Set<JobContext> active = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private volatile boolean stopped;
    private volatile boolean batchesServed = true;
    private boolean dirty; // guarded by lock: a job came or the loop must end since the last scan

    Heartbeats(JobfoundryClient client, TypeTimeouts timeouts, double fraction, Counters counters) {
        this.client = client;
        this.timeouts = timeouts;
        this.fraction = fraction;
        this.counters = counters;
    }

    void add(JobContext job) {
        long period = period(job); // may read the type from the service: before taking the time
        job.nextBeatNanos = System.nanoTime() + period;
        active.add(job);
        signal();
    }

    void remove(JobContext job) {
        active.remove(job);
    }

    void stop() {
        stopped = true;
        signal();
    }

    @Override
    public void run() {
        while (!stopped) {
            long now = System.nanoTime();
            boolean anyDue = false;
            long next = now + TimeUnit.SECONDS.toNanos(1);
            for (JobContext job : active) {
                anyDue |= job.nextBeatNanos <= now;
                next = Math.min(next, job.nextBeatNanos);
            }
            if (!anyDue) {
                await(next - now);
                continue;
            }
            // A request goes out anyway, so every job past half its period beats with it: beating early costs
            // nothing, and jobs that drifted apart come back into one batch instead of one request each.
            List<JobContext> due = new ArrayList<>();
            for (JobContext job : active) {
                if (job.nextBeatNanos - now <= period(job) / 2) {
                    due.add(job);
                }
            }
            for (int from = 0; from < due.size(); from += MAX_BATCH) {
                beat(due.subList(from, Math.min(due.size(), from + MAX_BATCH)));
            }
        }
    }

    private void beat(List<JobContext> due) {
        // A run superseded by a newer one of the same job is halted already; its beat would make the service
        // refuse the whole batch.
        List<JobContext> jobs = JobContext.newestLeases(due, job -> job, active::remove);
        List<Object> progress = new ArrayList<>(jobs.size());
        List<Heartbeat> calls = new ArrayList<>(jobs.size());
        for (JobContext job : jobs) {
            Object data = job.takeProgress();
            progress.add(data);
            calls.add(Heartbeat.of(job.leasedJob(), data));
        }
        List<ItemResult> results = null;
        if (calls.size() > 1 && batchesServed) {
            try {
                results = batch(calls);
            } catch (ProblemException e) {
                if (!e.refusedForGood()) {
                    failed(jobs, progress, e);
                    return;
                }
                // Sent again as it is, a refused batch would be refused again, every time: no halt would ever be
                // heard and the jobs would time out under their handlers. One by one, each gets its own answer.
                LOG.log(Level.WARNING, "the service refused a heartbeat batch of {0} ({1}); sending them one by one",
                        calls.size(), e.getMessage());
            } catch (RuntimeException e) {
                failed(jobs, progress, e);
                return;
            }
        }
        for (int i = 0; i < jobs.size(); i++) {
            ItemResult result = results != null ? results.get(i) : single(jobs.get(i), calls.get(i), progress.get(i));
            if (result != null) {
                answered(jobs.get(i), result);
            }
        }
    }

    private void failed(List<JobContext> jobs, List<Object> progress, RuntimeException e) {
        // Any exception, not only a failed call: the thread must go on beating for every other job.
        if (e instanceof JobfoundryException) {
            LOG.log(Level.WARNING, "heartbeat of {0} job(s) failed: {1}", jobs.size(), e.getMessage());
        } else {
            LOG.log(Level.ERROR, "heartbeat of " + jobs.size() + " job(s) failed", e);
        }
        for (int i = 0; i < jobs.size(); i++) {
            retrySoon(jobs.get(i), progress.get(i));
        }
    }

    private void retrySoon(JobContext job, Object progress) {
        job.restoreProgress(progress);
        // Try again soon: the lease lasts a whole timeout, and the beat came early.
        job.nextBeatNanos = System.nanoTime() + period(job) / 2;
    }

    /** @return the batch's results, or {@code null} if the service has no batch call (then: one by one) */
    private List<ItemResult> batch(List<Heartbeat> calls) {
        try {
            List<ItemResult> results = client.heartbeatBatch(calls);
            counters.heartbeatBatches.incrementAndGet();
            return results;
        } catch (ProblemException e) {
            if (!e.unknownPath()) {
                throw e;
            }
            batchesServed = false;
            LOG.log(Level.WARNING, "the service does not serve POST /v1/heartbeat; sending heartbeats one by one");
            return null;
        }
    }

    /** @return the answer to one job's own heartbeat, or {@code null} if it failed (then it is tried again soon) */
    private ItemResult single(JobContext job, Heartbeat call, Object progress) {
        counters.heartbeatCalls.incrementAndGet();
        try {
            return new ItemResult(200, client.heartbeat(call), null);
        } catch (HaltException e) {
            return new ItemResult(409, null, e.reason());
        } catch (ProblemException e) {
            if (e.status() == 404) {
                return new ItemResult(404, null, "removed");
            }
            if (e.refusedForGood() && call.data() != null) {
                // Progress the service will not take (over its data limit): keeping the lease matters more.
                LOG.log(Level.WARNING, "progress of job {0}/{1} was refused and is dropped: {2}",
                        call.type(), call.id(), e.getMessage());
                return single(job, new Heartbeat(call.type(), call.id(), call.lease(), null), null);
            }
            failed(List.of(job), java.util.Collections.singletonList(progress), e);
            return null;
        } catch (RuntimeException e) {
            failed(List.of(job), java.util.Collections.singletonList(progress), e);
            return null;
        }
    }

    private void answered(JobContext job, ItemResult result) {
        if (result.halted() && job.finishing) {
            active.remove(job); // a beat that crossed the job's finish: the finish's answer tells what happened
        } else if (result.halted()) {
            active.remove(job);
            if (job.halt(result.reason() == null ? "removed" : result.reason())) {
                counters.halted.incrementAndGet();
                LOG.log(Level.INFO, "job {0}/{1} halted ({2}): its handler is stopped",
                        job.job().type(), job.job().id(), job.haltReason());
            }
        } else if (result.ok()) {
            job.nextBeatNanos = System.nanoTime() + period(job);
        } else {
            LOG.log(Level.WARNING, "heartbeat of {0}/{1} answered {2}", job.job().type(), job.job().id(), result.status());
            job.nextBeatNanos = System.nanoTime() + period(job) / 2;
        }
    }

    private long period(JobContext job) {
        return (long) (timeouts.of(job.job().type()).toNanos() * fraction);
    }

    private void signal() {
        lock.lock();
        try {
            dirty = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void await(long nanos) {
        if (nanos <= 0) {
            return;
        }
        lock.lock();
        try {
            if (!dirty && !stopped) {
                changed.awaitNanos(nanos);
            }
            dirty = false;
        } catch (InterruptedException e) {
            stopped = true;
        } finally {
            lock.unlock();
        }
    }
}
