package io.jobfoundry.client;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each type's activity timeout, read from {@code GET /v1/types/{type}} and read again after a while, since an
 * operator may change it while workers run.
 */
final class TypeTimeouts {

    private static final System.Logger LOG = System.getLogger(TypeTimeouts.class.getName());
    /** The shortest timeout the service allows: the safe guess until the type's own is known. */
    static final Duration SHORTEST = Duration.ofSeconds(1);
    private static final Duration DEFAULT = Duration.ofSeconds(30);
    private static final long REFRESH_NANOS = Duration.ofSeconds(60).toNanos();

    private record Known(Duration timeout, long readAtNanos) {
    }

    private final JobfoundryClient client;
    private final Map<String, Known> known = new ConcurrentHashMap<>();

    TypeTimeouts(JobfoundryClient client) {
        this.client = client;
    }

    Duration of(String type) {
        Known k = known.get(type);
        long now = System.nanoTime();
        if (k != null && now - k.readAtNanos() < REFRESH_NANOS) {
            return k.timeout();
        }
        try {
            // A type nobody configured has the defaults (it exists once it has a job).
            Duration timeout = client.type(type).map(TypeInfo::activityTimeout).orElse(DEFAULT);
            known.put(type, new Known(timeout, now));
            return timeout;
        } catch (JobfoundryException e) {
            Duration guess = k != null ? k.timeout() : SHORTEST;
            LOG.log(Level.WARNING, "cannot read the activity timeout of type {0} ({1}); heartbeats assume {2}",
                    type, e.getMessage(), guess);
            return guess;
        }
    }
}
