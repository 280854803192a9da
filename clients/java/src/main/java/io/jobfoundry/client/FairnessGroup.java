package io.jobfoundry.client;

/**
 * A fairness group of a type with pending or running jobs ({@link Operations#groups}).
 *
 * @param group the group's name; {@code ""} is the default group
 * @param pending its pending jobs, due ones included
 * @param due those of them that are due
 * @param running its running jobs
 */
public record FairnessGroup(String group, long pending, long due, long running) {
}
