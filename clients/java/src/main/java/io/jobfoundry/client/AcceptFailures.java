package io.jobfoundry.client;

import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * How a worker's accept thread goes on after an accept failed. A failed call (the service unreachable, a 503
 * after the client's retries, an answer it cannot read) is tried again with the client's backoff and logged each
 * time. A refused one — {@code 401} or {@code 403} (the token, its roles, its types) or {@code 400} (the types
 * asked for) — will be answered the same way however often it is asked, until someone changes the configuration,
 * here or on the service, which may happen while the worker runs. So it is logged once as an error with what the
 * service said, asked again every {@link #REFUSED_AGAIN} without a word while the answer stays the same, and the
 * first accept answered after it is logged too.
 */
final class AcceptFailures {

    static final Duration REFUSED_AGAIN = Duration.ofSeconds(30);

    // The worker's logger: the lines belong to it, and are configured with it.
    private static final System.Logger LOG = System.getLogger(Worker.class.getName());

    private final Duration refusedAgain;
    private int failures;
    private String refusal;

    AcceptFailures(Duration refusedAgain) {
        this.refusedAgain = refusedAgain;
    }

    /**
     * @param e why the accept failed
     * @return how long to wait before the next accept
     */
    Duration failed(RuntimeException e) {
        if (e instanceof ProblemException p && refusedForGood(p.status())) {
            failures = 0;
            if (!e.getMessage().equals(refusal)) {
                refusal = e.getMessage();
                LOG.log(Level.ERROR, "accept refused ({0}); the worker''s token or its types must change, here or on"
                        + " the service: asking again every {1} s", refusal, refusedAgain.toMillis() / 1000.0);
            }
            return refusedAgain;
        }
        failures++;
        if (e instanceof JobfoundryException) {
            LOG.log(Level.WARNING, "accept failed ({0}); trying again", e.getMessage());
        } else {
            LOG.log(Level.ERROR, "accept failed; trying again", e);
        }
        return RetryPolicy.defaults().delay(failures, null);
    }

    /** An accept was answered. */
    void answered() {
        failures = 0;
        if (refusal != null) {
            LOG.log(Level.INFO, "accepts are answered again, after: {0}", refusal);
            refusal = null;
        }
    }

    private static boolean refusedForGood(int status) {
        return status == 400 || status == 401 || status == 403;
    }
}
