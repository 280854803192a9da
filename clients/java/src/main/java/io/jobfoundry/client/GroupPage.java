package io.jobfoundry.client;

import java.util.List;

/**
 * One page of a type's fairness groups, in name order.
 *
 * @param groups the groups of this page
 * @param next the cursor of the next page, or {@code null} on the last page
 */
public record GroupPage(List<FairnessGroup> groups, String next) {
}
