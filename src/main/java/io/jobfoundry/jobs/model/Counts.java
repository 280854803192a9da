package io.jobfoundry.jobs.model;

/** Jobs of a type by state and result; {@code due} is the part of {@code pending} that may run now. */
public record Counts(long pending, long due, long running, long succeeded, long failed, long cancelled) {

    /** A type with no job in any state. */
    public static final Counts NONE = new Counts(0, 0, 0, 0, 0, 0);
}
