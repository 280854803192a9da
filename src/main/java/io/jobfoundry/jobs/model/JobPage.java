package io.jobfoundry.jobs.model;

import java.util.List;

/** One page of a listing; {@code next} continues it, {@code null} at the end. */
public record JobPage(List<Job> jobs, String next) {
}
