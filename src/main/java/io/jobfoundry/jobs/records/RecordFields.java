package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;
import com.apple.foundationdb.tuple.Versionstamp;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import java.util.List;

/**
 * What a {@link JobRecord} holds: the public fields plus what the engine needs to keep its
 * promises. Apart from the record's moves so that {@link RecordFormat} can read and write them
 * without knowing the moves.
 */
abstract class RecordFields {

    final String type;
    final String id;
    JobState state;
    JobResult result;
    String data;
    String group;
    Priority priority;
    long scheduledAt;
    long createdAt;
    long updatedAt;
    Long startedAt;
    Long finishedAt;
    String repeat;
    int attempt;
    int maxAttempts;
    String lastError;
    boolean resubmit;
    String worker;
    long revision;
    String lease;
    boolean cancelRequested;
    /** Pending as a retry of a failed attempt: goes before fresh runs once due. */
    boolean retry;
    /** Pending and in the ready index (due); otherwise pending in the scheduled index. */
    boolean due;
    /** The nonce of the add that created this incarnation, to recognize its own retried attempt. */
    String origin;
    /** The lease of the last run that ended, to answer its processor's repeated calls alike. */
    String finishedLease;
    /**
     * How that run ended: a finish repeated is answered as the first only if it is the same
     * finish, and a run stopped by a cancel keeps answering "cancelled" though the job went on.
     * Null in a record written before it was kept (any finish with the lease was then a repeat).
     */
    JobResult finishedAs;
    /**
     * When the current run was scheduled, once a retry has moved {@link #scheduledAt} to its own
     * due time; null while none has. A {@code SCHEDULED} repeat counts from it, and a resubmit's
     * time for the next run is kept in it.
     */
    Long runScheduledAt;
    /**
     * The nonce of the finish call that ended the last run, so that the call's own retried attempt
     * (after an unknown commit result) is answered as the first even if the job was accepted
     * again in between. Null in a record written before it was kept.
     */
    String finishedBy;
    /**
     * The nonce of the last add or resubmit that changed this record, so that the call's own retried
     * attempt (after an unknown commit result) finds its effect there: a job that attempt made pending
     * may be running by the retry, which must not flag it to run again. Null in a record no such call
     * changed, and in records written before it was kept.
     */
    String changedBy;
    /** The most recent attempts ({@link History}); null until one ends, and in records written before it was kept. */
    Tuple history;
    /** The jobs this run waits for ({@code after}), in the order given; empty for none. */
    List<JobRef> after = List.of();
    /**
     * Those of {@link #after} not yet done. A pending job with any is <em>parked</em>: in no index
     * (not due, so neither ready nor scheduled nor in the latency index), counted as scheduled, and
     * named by an edge key under each of them ({@link Dependencies}).
     */
    List<JobRef> waitingFor = List.of();
    /** Run even if one of {@link #after} fails, is cancelled or removed; else it ends cancelled. */
    boolean runAfterFailure;
    /** The dependency whose failure or removal cancelled this job (named in its lastError), or null. */
    JobRef blockedBy;
    /**
     * The concurrency permits a running job holds ({@link HeldSlots}), to give back when it stops;
     * null when it holds none (not running, a type without limits, or written before limits).
     */
    HeldSlots slots;
    /** Complete when read; {@code null} when not running. */
    Versionstamp activity;
    /**
     * Why the change under way ended the job's repeating series, or null. Not stored: the caller
     * logs it once the transaction has committed, so that a retried attempt does not log it twice.
     */
    String seriesEnd;

    RecordFields(String type, String id) {
        this.type = type;
        this.id = id;
    }
}
