package io.jobfoundry.client;

/** A job's priority within its fairness group. */
public enum Priority {
    /** Taken first, by the type's priority scheme. */
    HIGH("high"),
    /** The default. */
    LOW("low");

    private final String wireName;

    Priority(String wireName) {
        this.wireName = wireName;
    }

    /** @return the name on the wire */
    public String wireName() {
        return wireName;
    }

    static Priority of(String wire) {
        return "high".equals(wire) ? HIGH : LOW;
    }
}
