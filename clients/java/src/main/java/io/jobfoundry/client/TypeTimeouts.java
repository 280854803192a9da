package io.jobfoundry.client;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
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
    private static final Duration REFRESH = Duration.ofSeconds(60);

    private record Known(Duration timeout, long readAtNanos) {
    }

    private final JobfoundryClient client;
    private final Map<String, Known> known = new ConcurrentHashMap<>();
    private final Set<String> refreshing = ConcurrentHashMap.newKeySet();

    private final long refreshNanos;

    TypeTimeouts(JobfoundryClient client) {
        this(client, REFRESH);
    }

    TypeTimeouts(JobfoundryClient client, Duration refresh) {
        this.client = client;
        this.refreshNanos = refresh.toNanos();
    }

    Duration of(String type) {
        Known k = known.get(type);
        if (k == null) {
            return read(type, null); // the first job of a type: its heartbeats cannot be paced before this
        }
        if (System.nanoTime() - k.readAtNanos() >= refreshNanos && refreshing.add(type)) {
            // Read again on another thread: a slow or unavailable service must not hold up heartbeats,
            // which go on at the known pace meanwhile.
            Thread refresh = new Thread(() -> {
                try {
                    read(type, k);
                } finally {
                    refreshing.remove(type);
                }
            }, "jobfoundry-type-" + type);
            refresh.setDaemon(true);
            refresh.start();
        }
        return k.timeout();
    }

    private Duration read(String type, Known before) {
        try {
            // A type nobody configured has the defaults (it exists once it has a job).
            Duration timeout = client.type(type).map(TypeInfo::activityTimeout).orElse(DEFAULT);
            known.put(type, new Known(timeout, System.nanoTime()));
            return timeout;
        } catch (JobfoundryException e) {
            Duration guess = before != null ? before.timeout() : SHORTEST;
            LOG.log(Level.WARNING, "cannot read the activity timeout of type {0} ({1}); heartbeats assume {2}",
                    type, e.getMessage(), guess);
            if (before != null) {
                known.put(type, new Known(guess, System.nanoTime()));
            }
            return guess;
        }
    }
}
