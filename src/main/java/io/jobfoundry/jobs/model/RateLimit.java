package io.jobfoundry.jobs.model;

import java.time.Duration;

/**
 * At most {@code count} starts of a type's jobs (of each group's, with {@code perGroup}) in any
 * window of {@code window}, across replicas, by the engine's clock ({@code docs/architecture.md},
 * "Concurrency and rate limits", for clock skew).
 */
public record RateLimit(int count, Duration window, boolean perGroup) {

    /** The most starts per window: each is a slot key an exhausted limit's accept reads. */
    public static final int MAX_COUNT = 10_000;
    public static final Duration SHORTEST_WINDOW = Duration.ofSeconds(1);
    /** Longer windows are better served by a schedule than by a limit, and keep slots from looking used for ages. */
    public static final Duration LONGEST_WINDOW = Duration.ofDays(1);

    public RateLimit {
        if (count < 1 || count > MAX_COUNT) {
            throw new InvalidJobRequestException("rateLimit.count", "rateLimit.count must be within 1.." + MAX_COUNT);
        }
        if (window == null || window.compareTo(SHORTEST_WINDOW) < 0 || window.compareTo(LONGEST_WINDOW) > 0) {
            throw new InvalidJobRequestException("rateLimit.seconds",
                    "rateLimit.seconds must be within 1 and 86400 (one day)");
        }
        if (window.toNanos() % 1_000_000 != 0) {
            throw new InvalidJobRequestException("rateLimit.seconds", "rateLimit.seconds takes at most millisecond precision");
        }
    }
}
