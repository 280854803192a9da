package io.jobfoundry.jobs.model;

/** One heartbeat of a batch: as the single heartbeat call takes it. */
public record HeartbeatItem(String type, String id, String lease, Change<String> data) {
}
