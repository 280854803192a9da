package io.jobfoundry.api;

import io.micrometer.core.instrument.Tags;
import io.quarkus.micrometer.runtime.HttpServerMetricsTagsContributor;
import jakarta.inject.Singleton;
import java.util.Set;

/**
 * Names the API's fixed paths in the request metrics of their errors too. Quarkus keeps an error's
 * path ({@code suppress4xx-errors}, so that no client makes a series per raw path) only where a
 * template replaced it, and a path with no parameter is its own template: without this, a {@code 503}
 * of {@code POST /v1/jobs} or {@code /v1/accept} was counted under {@code uri="UNKNOWN"}, out of
 * reach of an alert on those paths. These paths are few and fixed, so naming them adds no series a
 * client could multiply; any other path (a typo, {@code /v1/jobs/}) keeps Quarkus' label.
 */
@Singleton
public class FixedPathMetrics implements HttpServerMetricsTagsContributor {

    /** Every resource path without a parameter ({@code MetricsTest} checks it against the OpenAPI document). */
    static final Set<String> PATHS = Set.of("/v1/jobs", "/v1/accept", "/v1/finish", "/v1/heartbeat", "/v1/bulk",
            "/v1/types", "/v1/me", "/v1/repeat/preview");

    @Override
    public Tags contribute(Context context) {
        if (context.response().statusCode() < 400) {
            return Tags.empty(); // named by Quarkus already
        }
        String path = context.request().path();
        return PATHS.contains(path) ? Tags.of("uri", path) : Tags.empty();
    }
}
