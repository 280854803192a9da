package io.jobfoundry.api;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Refuses a query parameter of this API sent with an empty value ({@code ?waitFor=}). Quarkus REST
 * hands it to the resource as absent, so {@code GET …?waitFor=&timeout=} answered at once instead
 * of waiting, and a URL built from an empty variable went unnoticed. {@code group=} is not among
 * them: there the empty text is a value, the default group.
 */
public class QueryParameterCheck {

    private static final List<String> TAKEN = List.of("waitFor", "timeout", "state", "limit", "cursor");

    @ServerRequestFilter
    public void check(HttpServerRequest request, UriInfo uri) {
        if (request.query() == null) {
            return; // nearly every request: nothing to look at
        }
        Map<String, List<String>> parameters = uri.getQueryParameters();
        for (String name : TAKEN) {
            List<String> values = parameters.get(name);
            if (values != null && values.contains("")) {
                throw new InvalidInputException(name, name + " is empty; leave it out for its default");
            }
        }
    }
}
