package io.jobfoundry.jobs.model;

import java.time.Instant;

/**
 * A type's configuration, its counts, whether it is paused (accepts pass it over), and the due
 * time of its job that has waited longest ({@code null} when no job is due).
 */
public record TypeInfo(String type, TypeSettings settings, Counts counts, boolean paused, Instant oldestDueAt) {
}
