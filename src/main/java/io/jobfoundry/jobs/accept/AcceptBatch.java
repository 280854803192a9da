package io.jobfoundry.jobs.accept;

import io.jobfoundry.jobs.model.LeasedJob;
import java.time.Instant;
import java.util.List;

/**
 * Jobs for each claim (in order), and what the claims still short wait on: with a watch, the
 * ready counters of these types as the transaction that found too few read them, to be armed once
 * it has committed ({@link ReadyWatch#arm}), so no job can slip in between unnoticed (couch_jobs);
 * {@link ReadyWatch#NONE} otherwise. {@code rateFreesAt}, if not null, is when a rate limit that held
 * a waiting claim back frees a slot (by the engine's clock): no store write marks that moment, so
 * the waiter needs a timer for it as well as the watch.
 */
public record AcceptBatch(List<List<LeasedJob>> jobs, ReadyWatch wake, Instant rateFreesAt) {
}
