package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A processor call was answered {@code 409} halt: the lease is no longer the job's, so the processor
 * must stop working on it (couch_jobs' {@code halt}). {@link #reason()} says why.
 */
public class HaltException extends ProblemException {

    private static final long serialVersionUID = 1L;

    /**
     * A halt answer.
     *
     * @param problem the problem document, with its {@code reason}
     */
    public HaltException(JsonNode problem) {
        super(409, problem);
    }

    /**
     * A halt from one item of a batch call, which carries only a reason.
     *
     * @param reason {@code lease-lost}, {@code removed} or {@code cancelled}
     * @return the exception
     */
    static HaltException ofReason(String reason) {
        return new HaltException(Json.MAPPER.createObjectNode().put("type", HALT_TYPE).put("status", 409)
                .put("detail", "halt: " + reason).put("reason", reason));
    }

    /** The problem {@code type} of a halt. */
    public static final String HALT_TYPE = "tag:jobfoundry.io,2026:problem/halt";

    /** @return {@code lease-lost} (timed out or accepted again), {@code removed} or {@code cancelled} */
    public String reason() {
        return member("reason");
    }
}
