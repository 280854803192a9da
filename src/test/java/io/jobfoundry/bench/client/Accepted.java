package io.jobfoundry.bench.client;

import com.fasterxml.jackson.databind.JsonNode;

/** A job as a worker holds it after {@code POST /v1/accept}: what finishing it and measuring it need. */
public record Accepted(String type, String id, String lease, String group, int attempt, JsonNode data) {

    /** The {@code System.nanoTime()} a bench producer stamped into {@code data.t} when it created the job. */
    public long createdNanos() {
        return data.path("t").asLong();
    }
}
