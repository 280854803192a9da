package io.jobfoundry.api;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

/**
 * Describes the {@code {type}} and {@code {id}} path parameters once, for every operation that
 * has them, instead of repeating the same annotation on sixteen methods. Runs when the document is
 * built, so the served document costs nothing at start or per request.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class PathParameterDocs implements OASFilter {

    /** API.md's rule for type names (TypeNames holds the check the engine applies). */
    static final String TYPE_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$";

    @Override
    public Parameter filterParameter(Parameter parameter) {
        if (parameter.getIn() != Parameter.In.PATH) {
            return parameter;
        }
        switch (parameter.getName()) {
            case "type" -> parameter.description("The job type: 1-64 characters of [A-Za-z0-9._-], starting with a "
                    + "letter or digit; anything else is 400.")
                    .schema(string().pattern(TYPE_PATTERN).addExample("email"));
            case "id" -> parameter.description("The job id: 1-256 characters (at most 768 bytes of UTF-8), "
                    + "no '/' and no control characters, not '.' or '..', percent-encoded as UTF-8 (';' as %3B); "
                    + "anything else is 400.")
                    .schema(string().minLength(1).maxLength(256).addExample("welcome-42"));
            default -> {
                // no other path parameters
            }
        }
        return parameter;
    }

    private static Schema string() {
        return OASFactory.createSchema().addType(Schema.SchemaType.STRING);
    }
}
