package io.jobfoundry.jobs.model;

/** A type's configuration, its counts, and whether it is paused (accepts pass it over). */
public record TypeInfo(String type, TypeSettings settings, Counts counts, boolean paused) {
}
