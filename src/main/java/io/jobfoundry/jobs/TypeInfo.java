package io.jobfoundry.jobs;

/** A type's configuration and its counts. */
public record TypeInfo(String type, TypeSettings settings, Counts counts) {
}
