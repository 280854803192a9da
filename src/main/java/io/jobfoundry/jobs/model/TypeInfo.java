package io.jobfoundry.jobs.model;

/** A type's configuration and its counts. */
public record TypeInfo(String type, TypeSettings settings, Counts counts) {
}
