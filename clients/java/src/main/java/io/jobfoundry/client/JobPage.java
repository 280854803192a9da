package io.jobfoundry.client;

import java.util.List;

/**
 * One page of a job listing, in (type, id) order. A filtered page may hold fewer jobs than asked for, even none,
 * while {@code next} is not {@code null}: the service scans a bounded number of jobs per call.
 *
 * @param jobs the jobs of this page
 * @param next the cursor of the next page, or {@code null} on the last page
 */
public record JobPage(List<Job> jobs, String next) {
}
