package io.jobfoundry.jobs.model;

import java.util.List;

/** One page of a type's groups in name order; {@code next} continues it, {@code null} at the end. */
public record GroupPage(List<GroupCounts> groups, String next) {
}
