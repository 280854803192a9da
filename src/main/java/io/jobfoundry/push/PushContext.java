package io.jobfoundry.push;

import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.waits.JobWaits;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import org.jboss.logging.Logger;

/**
 * What every part of push delivery runs with: the engine and its waits, the Vert.x instance and
 * its HTTP client, the allow-list, the signing key, the answer limit, the meters and the clock.
 *
 * @param secret   the signing key's bytes, or null: calls are not signed
 * @param blocking a thread for the little that blocks: giving jobs back
 */
record PushContext(JobEngine engine, JobWaits waits, Vertx vertx, HttpClient client, PushTargets targets,
        byte[] secret, int maxAnswerBytes, PushMetrics metrics, Clock clock, ExecutorService blocking) {

    private static final Logger LOG = Logger.getLogger(PushContext.class);

    /** Gives a job taken for a push that will not happen back to the queue, off the caller's thread. */
    void giveBackLater(LeasedJob leased) {
        blocking.execute(() -> giveBack(leased));
    }

    /** Gives a job back to the queue, unchanged, for another replica or a worker; blocks for the commit. */
    void giveBack(LeasedJob leased) {
        try {
            engine.accepting().release(leased);
        } catch (RuntimeException e) {
            // Still leased to us: it comes back after its activity timeout.
            LOG.warnf(e, "push: giving job %s/%s back failed", leased.job().type(), leased.job().id());
        }
    }

    @Override
    public String toString() {
        return "PushContext"; // never the secret
    }
}
