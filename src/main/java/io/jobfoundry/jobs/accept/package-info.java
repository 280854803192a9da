/**
 * Every transaction that leases jobs out (couch_jobs' {@code couch_jobs_pending}): a worker's
 * accept, a dispatcher's round for the accepts blocked on one set of types, and an add that hands
 * its job to a blocked accept in the same transaction ({@link io.jobfoundry.jobs.accept.Accepting}).
 * The {@link io.jobfoundry.jobs.accept.Acceptor} chooses which ready job goes (docspell's fairness
 * and priorities) and keeps the turns; {@link io.jobfoundry.jobs.accept.Waiters} is the seam
 * through which the engine finds a blocked accept without knowing how it waits.
 */
package io.jobfoundry.jobs.accept;
