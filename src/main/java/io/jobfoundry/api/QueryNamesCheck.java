package io.jobfoundry.api;

import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.UriInfo;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Refuses, for every endpoint at once, a query parameter the call does not take: {@code ?result=failed}
 * on a listing that had no such filter used to list everything, silently. A call takes the query
 * parameters it reads ({@code @QueryParam}) and those it documents
 * ({@code @Parameter(in = QUERY)}, for the ones it reads from {@link UriInfo} itself), so a
 * parameter that is documented is also taken, and {@code OpenApiDocumentTest} holds the rest.
 */
public class QueryNamesCheck {

    private final ConcurrentHashMap<Method, Set<String>> taken = new ConcurrentHashMap<>();

    @ServerRequestFilter
    public void check(UriInfo uri, ResourceInfo resource) {
        if (uri.getQueryParameters().isEmpty() || resource == null || resource.getResourceMethod() == null) {
            return;
        }
        Set<String> names = taken.computeIfAbsent(resource.getResourceMethod(), QueryNamesCheck::namesOf);
        for (Map.Entry<String, List<String>> parameter : uri.getQueryParameters().entrySet()) {
            String name = parameter.getKey();
            if (!names.contains(name)) {
                throw new InvalidInputException(name, "unknown query parameter " + Problems.printable(name) + "; "
                        + (names.isEmpty() ? "this call takes none" : "this call takes " + String.join(", ", names)));
            }
            // Every parameter takes one value; which of two a call used would be a guess, as for
            // a member named twice in a body.
            if (parameter.getValue().size() > 1) {
                throw new InvalidInputException(name, "query parameter " + Problems.printable(name) + " is given "
                        + parameter.getValue().size() + " times; it takes one value");
            }
        }
    }

    private static Set<String> namesOf(Method method) {
        Set<String> names = new TreeSet<>();
        for (Parameter parameter : method.getParameters()) {
            QueryParam query = parameter.getAnnotation(QueryParam.class);
            if (query != null) {
                names.add(query.value());
            }
        }
        for (org.eclipse.microprofile.openapi.annotations.parameters.Parameter documented : method.getAnnotationsByType(
                org.eclipse.microprofile.openapi.annotations.parameters.Parameter.class)) {
            if (documented.in() == ParameterIn.QUERY) {
                names.add(documented.name());
            }
        }
        return names;
    }
}
