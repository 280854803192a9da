package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * A type's configuration and job counts, as {@code GET /v1/types/{type}} shows them.
 *
 * @param type the type's name
 * @param activityTimeout how long a running job may go without a heartbeat or finish
 * @param maxAttempts attempts a new job of the type may take
 * @param concurrency how many of its jobs may run at once ({@link Concurrency#UNLIMITED} when no limit is set)
 * @param rateLimit how many of its jobs may start per window, or {@code null} when none is set
 * @param json the whole answer, including settings and counts this version does not model
 */
public record TypeInfo(String type, Duration activityTimeout, int maxAttempts, Concurrency concurrency, RateLimit rateLimit,
        JsonNode json) {

    /** @return whether the type is paused: it hands out no job until resumed */
    public boolean paused() {
        return json.path("paused").asBoolean();
    }

    /**
     * One of the type's counts.
     *
     * @param name {@code pending}, {@code due}, {@code running}, {@code succeeded}, {@code failed} or {@code cancelled}
     * @return the count, 0 if the service does not report it
     */
    public long count(String name) {
        JsonNode counts = json.get("counts");
        return counts == null || counts.get(name) == null ? 0 : counts.get(name).asLong();
    }
}
