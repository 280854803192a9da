package io.jobfoundry.client;

/**
 * What a bulk action did.
 *
 * @param matched the jobs the filter matched, up to the action's limit
 * @param changed those the action changed (a cancel leaves finished jobs as they are, a retry unfinished ones)
 */
public record BulkResult(long matched, long changed) {
}
