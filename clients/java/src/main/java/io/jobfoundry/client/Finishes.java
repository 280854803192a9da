package io.jobfoundry.client;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Sends a worker's finishes on one thread. Whatever is ready when a request can go goes in it: one finish
 * alone, several in one {@code POST /v1/finish}. Under load, finishes pile up while a request is on its way,
 * so the next request carries them all; when idle, each job is finished as soon as its handler returns.
 */
final class Finishes implements Runnable {

    private static final System.Logger LOG = System.getLogger(Finishes.class.getName());
    private static final int MAX_BATCH = 1000;

    /** How long a finish is kept while the service cannot be reached (a restart, a deploy). */
    static final Duration LOST_FINISH_PATIENCE = Duration.ofMinutes(10);
    /** How often such a finish is sent again; a test may shorten it. */
    static volatile Duration lostFinishAgain = Duration.ofSeconds(5);

    private record Pending(JobContext job, Finish finish) {
    }

    /** A finish set aside while the service could not be reached, and when to send it again. */
    private record Kept(Pending pending, long dueNanos) {
    }

    private final JobfoundryClient client;
    private final Heartbeats heartbeats;
    private final Counters counters;
    private final Consumer<JobContext> released;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private volatile boolean draining;
    private volatile long giveUpAtNanos;
    private volatile boolean batchesServed = true;
    // The finishing thread's own.
    private final List<Kept> later = new ArrayList<>();
    private final Map<JobContext, Long> firstLost = new IdentityHashMap<>();

    Finishes(JobfoundryClient client, Heartbeats heartbeats, Counters counters, Consumer<JobContext> released) {
        this.client = client;
        this.heartbeats = heartbeats;
        this.counters = counters;
        this.released = released;
    }

    void submit(JobContext job, Finish finish) {
        queue.add(new Pending(job, finish));
    }

    /**
     * Sends what is queued, then ends the thread; finishes kept while the service could not be reached are sent
     * again until {@code giveUpAtNanos} ({@link System#nanoTime()}), then given up.
     */
    void drainAndStop(long giveUpAtNanos) {
        this.giveUpAtNanos = giveUpAtNanos;
        draining = true;
    }

    @Override
    public void run() {
        while (true) {
            List<Pending> batch = dueAgain();
            if (batch.isEmpty()) {
                Pending first;
                try {
                    first = queue.poll(50, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    return;
                }
                if (first == null) {
                    if (draining && !later.isEmpty() && System.nanoTime() - giveUpAtNanos >= 0) {
                        LOG.log(Level.WARNING, "{0} finish(es) could not be sent before the shutdown''s deadline",
                                later.size());
                        later.forEach(kept -> giveUp(kept.pending()));
                        later.clear();
                    }
                    if (draining && queue.isEmpty() && later.isEmpty()) {
                        return;
                    }
                    continue;
                }
                batch.add(first);
            }
            queue.drainTo(batch, MAX_BATCH - batch.size());
            try {
                send(batch);
            } catch (RuntimeException e) {
                // Never reached by a failed call (send settles those); kept so that no surprise ends the
                // thread, after which every later finish would sit in the queue and shutdown would hang on it.
                LOG.log(Level.ERROR, "sending " + batch.size() + " finish(es) failed", e);
            }
        }
    }

    private void send(List<Pending> all) {
        // The older of two runs of one job holds a spent lease: the service would answer it lease-lost.
        List<Pending> batch = JobContext.newestLeases(all, Pending::job, p -> done(p, new ItemResult(409, null, "lease-lost")));
        List<Pending> alone = new ArrayList<>();
        while (batch.size() > 1 && batchesServed) {
            try {
                List<ItemResult> results = client.finishBatch(batch.stream().map(Pending::finish).toList());
                counters.finishBatches.incrementAndGet();
                counters.largestFinishBatch.accumulateAndGet(batch.size(), Math::max);
                for (int i = 0; i < batch.size(); i++) {
                    done(batch.get(i), results.get(i));
                }
                batch = List.of();
            } catch (ProblemException e) {
                if (e.unknownPath()) {
                    // A service older than the batch calls: finish one by one rather than lose the finishes.
                    batchesServed = false;
                    LOG.log(Level.WARNING, "the service does not serve POST /v1/finish; finishing jobs one by one");
                } else if (!e.refusedForGood()) {
                    lost(batch, e);
                    return;
                } else {
                    // Refused whole for some items (a result over the data limit): the others must not pay for
                    // them, and sent again as it is the batch would be refused again.
                    batch = withoutRefused(batch, e, alone);
                }
            } catch (RuntimeException e) {
                lost(batch, e);
                return;
            }
        }
        alone.addAll(batch);
        for (Pending p : alone) {
            sendOne(p);
        }
    }

    /**
     * The batch again, each item the 400 names finished failed instead, saying why its result could not be sent.
     * Items named that carry no result, and every item when the 400 names none, go into {@code alone}, to be sent
     * one by one and get their own answers. Each round thus strips or removes an item: the retries end.
     */
    private List<Pending> withoutRefused(List<Pending> batch, ProblemException e, List<Pending> alone) {
        List<Pending> next = new ArrayList<>(batch);
        boolean changed = false;
        for (ProblemException.ItemError error : e.errors()) {
            if (error.index() < 0 || error.index() >= next.size() || next.get(error.index()) == null) {
                continue;
            }
            Pending p = next.get(error.index());
            if (p.finish().data() != null) {
                next.set(error.index(), new Pending(p.job(), unsendable(p.finish(), error.detail())));
            } else {
                alone.add(p);
                next.set(error.index(), null);
            }
            changed = true;
        }
        if (!changed) {
            LOG.log(Level.WARNING, "the service refused a finish batch of {0} ({1}); finishing them one by one",
                    batch.size(), e.getMessage());
            alone.addAll(batch);
            return List.of();
        }
        return next.stream().filter(java.util.Objects::nonNull).toList();
    }

    /** The job fails (and is retried while attempts remain) rather than run again unnoticed after its timeout. */
    private static Finish unsendable(Finish finish, String why) {
        String error = "the handler's result could not be sent: " + (why == null ? "the service refused it" : why);
        LOG.log(Level.WARNING, "job {0}/{1}: {2}; finishing it failed", finish.type(), finish.id(), error);
        return new Finish(finish.type(), finish.id(), finish.lease(), Outcome.FAILED, null, error);
    }

    private void sendOne(Pending p) {
        counters.finishCalls.incrementAndGet();
        try {
            client.finish(p.finish());
            done(p, new ItemResult(200, null, null));
        } catch (HaltException e) {
            done(p, new ItemResult(409, null, e.reason()));
        } catch (ProblemException e) {
            if (e.refusedForGood() && p.finish().data() != null) {
                sendOne(new Pending(p.job(), unsendable(p.finish(), e.detail())));
            } else {
                lost(List.of(p), e);
            }
        } catch (RuntimeException e) {
            lost(List.of(p), e);
        }
    }

    /** The finishes set aside by {@link #lost} whose time to be sent again has come. */
    private List<Pending> dueAgain() {
        List<Pending> due = new ArrayList<>();
        long now = System.nanoTime();
        for (Iterator<Kept> it = later.iterator(); it.hasNext(); ) {
            Kept kept = it.next();
            if (now - kept.dueNanos() >= 0) {
                due.add(kept.pending());
                it.remove();
            }
        }
        return due;
    }

    /**
     * The retries are spent. While the service cannot be reached (a restart, a deploy), a finish is kept and sent
     * again every few seconds for up to {@link #LOST_FINISH_PATIENCE}, its job's heartbeats going on: the job's
     * lease holds meanwhile, and the service answers lease-lost if it no longer does. Given up, or refused for
     * another reason, the job runs again after its activity timeout, as if this worker had died.
     */
    private void lost(List<Pending> batch, RuntimeException e) {
        boolean unreachable = !(e instanceof ProblemException problem) || problem.status() >= 500;
        long now = System.nanoTime();
        int kept = 0;
        for (Pending p : batch) {
            long first = firstLost.getOrDefault(p.job(), now);
            if (unreachable && now - first < LOST_FINISH_PATIENCE.toNanos() && (!draining || now - giveUpAtNanos < 0)) {
                firstLost.put(p.job(), first);
                later.add(new Kept(p, now + lostFinishAgain.toNanos()));
                kept++;
            } else {
                giveUp(p);
            }
        }
        if (kept > 0) {
            LOG.log(Level.WARNING, "{0} finish(es) could not be sent: {1}; sending again in {2} ms", kept,
                    e.getMessage(), lostFinishAgain.toMillis());
        }
        if (kept < batch.size()) {
            LOG.log(Level.WARNING, "{0} finish(es) could not be sent: {1}", batch.size() - kept, e.getMessage());
        }
    }

    private void giveUp(Pending p) {
        counters.lostFinishes.incrementAndGet();
        release(p);
    }

    private void done(Pending p, ItemResult result) {
        if (result.ok()) {
            (p.finish().outcome() == Outcome.SUCCEEDED ? counters.succeeded : counters.failed).incrementAndGet();
        } else if (result.halted()) {
            if (p.job().halt(result.reason() == null ? "removed" : result.reason())) {
                counters.halted.incrementAndGet();
                // The README promises an INFO for every halt; most are found here, by the job's last call.
                LOG.log(Level.INFO, "job {0}/{1} halted ({2}) when it was finished: its outcome was not recorded",
                        p.finish().type(), p.finish().id(), p.job().haltReason());
            }
        } else {
            counters.lostFinishes.incrementAndGet();
            LOG.log(Level.WARNING, "finish of {0}/{1} answered {2}", p.finish().type(), p.finish().id(), result.status());
        }
        release(p);
    }

    private void release(Pending p) {
        firstLost.remove(p.job());
        heartbeats.remove(p.job());
        released.accept(p.job());
        counters.running.decrementAndGet();
    }
}
