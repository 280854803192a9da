package io.jobfoundry.client;

/** How a finished job ended. */
public enum JobResult {
    /** Its processor finished it {@code succeeded}. */
    SUCCEEDED("succeeded"),
    /** Its attempts are exhausted. */
    FAILED("failed"),
    /** It was cancelled. */
    CANCELLED("cancelled");

    private final String wireName;

    JobResult(String wireName) {
        this.wireName = wireName;
    }

    /** @return the name on the wire, e.g. {@code succeeded} */
    public String wireName() {
        return wireName;
    }

    static JobResult of(String wire) {
        if (wire == null) {
            return null;
        }
        for (JobResult result : values()) {
            if (result.wireName.equals(wire)) {
                return result;
            }
        }
        throw new JobfoundryException("unknown job result '" + wire + "'");
    }
}
