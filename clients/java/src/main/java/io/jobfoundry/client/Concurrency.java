package io.jobfoundry.client;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A type's concurrency limit: how many of its jobs (of each fairness group) may run at once, across all
 * replicas. A {@code null} member is no limit. As a value in {@link JobfoundryClient#configureType} settings it is
 * sent as {@code {"max": n, "perGroup": n}}; {@link #UNLIMITED} lifts both limits.
 *
 * @param max jobs of the type running at once (1–10000), or {@code null} for no limit
 * @param perGroup jobs of one group running at once (1–10000), or {@code null} for no limit
 */
public record Concurrency(Integer max, Integer perGroup) {

    /** No limit on the type nor on its groups. */
    public static final Concurrency UNLIMITED = new Concurrency(null, null);

    /**
     * A limit on the type only.
     *
     * @param max jobs of the type running at once
     * @return the limit
     */
    public static Concurrency max(int max) {
        return new Concurrency(max, null);
    }

    /**
     * A limit on each group only.
     *
     * @param perGroup jobs of one group running at once
     * @return the limit
     */
    public static Concurrency perGroup(int perGroup) {
        return new Concurrency(null, perGroup);
    }

    /** @return the members as the JSON object sent */
    @JsonValue
    public ObjectNode toJson() {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("max", max);
        node.put("perGroup", perGroup);
        return node;
    }
}
