package io.jobfoundry.jobs.model;

/** Two priority classes, docspell's; the type's priority scheme says how they alternate. */
public enum Priority {
    HIGH, LOW;

    /** The byte that orders the class inside the ready index: high sorts first. */
    public int rank() {
        return ordinal();
    }

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
