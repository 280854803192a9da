package io.jobfoundry.jobs.model;

/** Two priority classes, docspell's; the type's priority scheme says how they alternate. */
public enum Priority {
    HIGH, LOW;

    /** The byte that orders the class inside the ready index: high sorts first. */
    public int rank() {
        return ordinal();
    }

    /** Computed once: every job on the wire names its state, result and priority. */
    private final String wireName = name().toLowerCase(java.util.Locale.ROOT);

    public String wireName() {
        return wireName;
    }
}
