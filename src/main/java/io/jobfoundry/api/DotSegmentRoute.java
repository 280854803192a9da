package io.jobfoundry.api;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;
import java.util.Map;

/**
 * Refuses a path with a segment that is {@code .} or {@code ..}, as sent or percent-encoded
 * ({@code %2E}), or empty ({@code //}) short of its end. URLs remove dot segments before routing
 * (RFC 3986, and Quarkus does), and Quarkus merges the slashes of an empty one, so the request
 * would reach another endpoint or name another job: {@code GET /v1/jobs/t/%2E} listed the type's
 * jobs, {@code PUT} of it was a 405, and {@code PUT /v1/jobs/t//x} made job {@code x}. An id
 * cannot be any of these; this says so with a {@code 400} naming the id (or the type), before
 * anything is routed.
 */
@ApplicationScoped
class DotSegmentRoute {

    /** The segment of {@code /v1/jobs/{type}/{id}/…} each path parameter stands in, counted from the root. */
    private static final Map<Integer, String> JOB_PATH_PARAMETERS = Map.of(3, "type", 4, "id");

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(DotSegmentRoute::check);
    }

    private static void check(RoutingContext ctx) {
        String path = ctx.request().path();
        if (path == null || (path.indexOf('.') < 0 && path.indexOf('%') < 0 && !path.contains("//"))) {
            ctx.next(); // every ordinary request: nothing to look at
            return;
        }
        String[] segments = path.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i].toUpperCase(Locale.ROOT).replace("%2E", ".");
            if (segment.equals(".") || segment.equals("..") || segment.isEmpty() && i > 0 && i < segments.length - 1) {
                refuse(ctx, segments, i);
                return;
            }
        }
        ctx.next();
    }

    private static void refuse(RoutingContext ctx, String[] segments, int index) {
        boolean jobPath = segments.length > 3 && segments[1].equals("v1") && segments[2].equals("jobs");
        String field = jobPath ? JOB_PATH_PARAMETERS.get(index) : null;
        String what = segments[index].isEmpty() ? "is empty ('//'), and its slashes would be merged"
                : "is '.' or '..', which URLs remove";
        Map<String, Object> problem = Problems.document(ProblemType.INVALID_REQUEST,
                (field == null ? "the path segment " : "the " + field + " ") + Problems.printable(segments[index])
                        + " " + what + " before the request is routed; "
                        + (field == null ? "no path segment" : "no " + field) + " can be empty, '.' or '..'");
        if (field != null) {
            problem.put("field", field);
        }
        ctx.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE)
                .end(Problems.json(problem));
    }
}
