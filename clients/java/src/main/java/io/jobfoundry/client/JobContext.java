package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/** One running job as its {@link JobHandler} sees it. Heartbeats are sent for it by the {@link Worker}. */
public final class JobContext {

    private final LeasedJob leased;
    // The order in which this worker's accepts handed out leases: of two runs of one job, the later holds the
    // only valid lease.
    final long acceptOrder;
    private final AtomicReference<Object> progress = new AtomicReference<>();
    private volatile String haltReason;
    private volatile boolean abandoned;
    // Set once the handler returned and its finish is queued: the finish's own answer settles the job then.
    volatile boolean finishing;
    private Thread thread;
    private boolean inHandler;

    // Scheduling of the next heartbeat, owned by the heartbeat thread.
    long nextBeatNanos;

    JobContext(LeasedJob leased, long acceptOrder) {
        this.leased = leased;
        this.acceptOrder = acceptOrder;
    }

    /**
     * Of several runs of one job (a run whose lease was lost, accepted again), the one with the newest lease: a
     * batch holds each job at most once, or the service refuses it whole.
     *
     * @param older receives the others
     */
    static <T> List<T> newestLeases(List<T> items, Function<T, JobContext> job, Consumer<T> older) {
        Map<JobRef, T> newest = new HashMap<>();
        for (T item : items) {
            newest.merge(job.apply(item).job().ref(), item,
                    (a, b) -> job.apply(a).acceptOrder >= job.apply(b).acceptOrder ? a : b);
        }
        if (newest.size() == items.size()) {
            return items;
        }
        List<T> kept = new ArrayList<>(newest.size());
        for (T item : items) {
            if (newest.get(job.apply(item).job().ref()) == item) {
                kept.add(item);
            } else {
                older.accept(item);
            }
        }
        return kept;
    }

    /** @return the job as it was accepted, with its lease */
    public LeasedJob leasedJob() {
        return leased;
    }

    /** @return the job as it was accepted */
    public Job job() {
        return leased.job();
    }

    /** @return the job's data as accepted, or {@code null} */
    public JsonNode data() {
        return leased.job().data();
    }

    /**
     * The job's data bound to a Java type.
     *
     * @param <T> the type
     * @param type the class to bind to
     * @return the data, or {@code null} when the job has none
     */
    public <T> T dataAs(Class<T> type) {
        return leased.job().dataAs(type);
    }

    /**
     * Records progress: it replaces the job's data with the next heartbeat, where {@code GET} and event streams
     * show it. Only the latest value set before a heartbeat is sent.
     *
     * @param data anything Jackson writes as a JSON object; {@code null} removes the job's data
     * @throws JobfoundryException naming the value's class if Jackson cannot write it, or writes it as anything but
     *     an object: it is written here, in the handler, not later on the heartbeat thread
     */
    public void progress(Object data) {
        progress.set(data == null ? Json.MAPPER.nullNode() : Json.jobData(data, "progress data"));
    }

    /** @return whether the service halted this job; the handler should stop, and its result will not be reported */
    public boolean isHalted() {
        return haltReason != null;
    }

    /** @return why the job was halted ({@code lease-lost}, {@code removed}, {@code cancelled}), or {@code null} */
    public String haltReason() {
        return haltReason;
    }

    Object takeProgress() {
        return progress.getAndSet(null);
    }

    void restoreProgress(Object data) {
        if (data != null) {
            progress.compareAndSet(null, data);
        }
    }

    /** Called on the handler's thread around the handler, so that an interrupt never outlives it. */
    synchronized void enter() {
        thread = Thread.currentThread();
        inHandler = true;
    }

    synchronized void leave() {
        inHandler = false;
        Thread.interrupted();
    }

    /** @return whether this was the job's first halt (so that it is counted once) */
    synchronized boolean halt(String reason) {
        if (haltReason != null) {
            return false;
        }
        haltReason = reason == null ? "halted" : reason;
        interrupt();
        return true;
    }

    void abandon() {
        abandoned = true;
        interrupt();
    }

    boolean abandoned() {
        return abandoned;
    }

    private synchronized void interrupt() {
        if (inHandler) {
            thread.interrupt();
        }
    }
}
