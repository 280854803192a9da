package io.jobfoundry.api;

import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.TypeNames;
import jakarta.ws.rs.core.UriInfo;

/**
 * The filters and page size of a listing's query, read the same way for one type
 * ({@code GET /v1/jobs/{type}}) and across types ({@code GET /v1/jobs}), so both refuse the same
 * bad values naming the same parameters.
 */
record ListQuery(JobState state, JobResult result, String group, int limit) {

    static ListQuery of(String state, String result, String limit, UriInfo uri, ApiConfig config) {
        // Read from UriInfo: @QueryParam turns "group=" into null, which would mean "any group".
        String group = uri.getQueryParameters().containsKey("group")
                ? uri.getQueryParameters().getFirst("group") : null;
        if (group != null) {
            TypeNames.checkGroup(group); // refused as in a body, not answered with an empty page
        }
        return new ListQuery(state == null ? null : JobBodies.state("state", state),
                result == null ? null : JobBodies.result("result", result), group,
                QueryParams.integer("limit", limit, 1, 1000, config.defaultPageSize()));
    }
}
