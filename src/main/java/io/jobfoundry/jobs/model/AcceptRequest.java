package io.jobfoundry.jobs.model;

import java.time.Instant;
import java.util.List;

/**
 * What a processor asks for: up to {@code max} due jobs of the named types (names may be globs
 * with {@code *} and {@code ?}, or, for a confined token, the names two globs both match:
 * {@link TypeNames#checkAcceptPattern}), scheduled at or before {@code maxScheduledAt} when given.
 */
public record AcceptRequest(List<String> types, int max, Instant maxScheduledAt, String worker) {

    public static final int MAX_JOBS = 100;

    public AcceptRequest {
        types = List.copyOf(types);
        if (types.isEmpty()) {
            throw new InvalidJobRequestException("types", "name at least one type (globs allowed)");
        }
        if (max < 1 || max > MAX_JOBS) {
            throw new InvalidJobRequestException("max", "max must be within 1.." + MAX_JOBS);
        }
        for (String pattern : types) {
            TypeNames.checkAcceptPattern(pattern);
        }
        // Shown in each attempt's history and on the dashboard: text, not a way into a log line.
        // Surrounding whitespace goes (a host name read from a file keeps its line break).
        worker = worker == null ? null : worker.strip();
        if (worker != null && !TypeNames.isText(worker, 256)) {
            throw new InvalidJobRequestException("worker", "worker is at most 256 characters without control characters");
        }
    }
}
