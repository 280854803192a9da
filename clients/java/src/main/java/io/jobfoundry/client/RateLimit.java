package io.jobfoundry.client;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;

/**
 * A type's rate limit: at most {@code count} of its jobs (of each fairness group, with {@code perGroup}) start in
 * any {@code window}, across all replicas. As a value in {@link JobfoundryClient#configureType} settings it is sent
 * as {@code {"count": n, "seconds": s, "perGroup": b}}; a {@code null} {@code rateLimit} there lifts it.
 *
 * @param count jobs started per window (1–10000)
 * @param window the window (1 s to one day, millisecond precision)
 * @param perGroup whether the limit applies to each group rather than to the whole type
 */
public record RateLimit(int count, Duration window, boolean perGroup) {

    /**
     * Checks the members.
     *
     * @param count jobs started per window
     * @param window the window
     * @param perGroup whether the limit applies to each group
     */
    public RateLimit {
        Objects.requireNonNull(window, "window");
    }

    /**
     * A limit on the whole type.
     *
     * @param count jobs started per window
     * @param window the window
     * @return the limit
     */
    public static RateLimit of(int count, Duration window) {
        return new RateLimit(count, window, false);
    }

    /** @return a copy that limits each group on its own */
    public RateLimit eachGroup() {
        return new RateLimit(count, window, true);
    }

    /** @return the members as the JSON object sent */
    @JsonValue
    public ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("count", count);
        long millis = window.toMillis();
        if (millis % 1000 == 0) {
            node.put("seconds", millis / 1000);
        } else {
            node.put("seconds", BigDecimal.valueOf(millis, 3));
        }
        node.put("perGroup", perGroup);
        return node;
    }
}
