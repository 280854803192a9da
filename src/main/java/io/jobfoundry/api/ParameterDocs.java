package io.jobfoundry.api;

import io.jobfoundry.jobs.model.CallKey;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

/**
 * Describes the {@code {type}} and {@code {id}} path parameters and the {@code Idempotency-Key}
 * header once, for every operation that has them, instead of repeating the same annotation on
 * sixteen methods. Runs when the document is built, so the served document costs nothing at start
 * or per request.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class ParameterDocs implements OASFilter {

    /** API.md's rule for type names (TypeNames holds the check the engine applies). */
    static final String TYPE_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$";

    @Override
    public Parameter filterParameter(Parameter parameter) {
        if (parameter.getIn() == Parameter.In.HEADER && IdempotencyKeys.HEADER.equals(parameter.getName())) {
            if (parameter.getDescription() == null) { // an operation that refuses it says so itself
                parameter.description("Names this call, so that its repeats (after a 503 or a lost answer) change "
                        + "nothing once it took effect: send a new key (a UUID) with each call and the same with its "
                        + "repeats. 1-" + CallKey.MAX_LENGTH + " visible ASCII characters other than '\"', '\\' and "
                        + "',', bare or quoted; anything else is 400. A job keeps the key of the last add or resubmit "
                        + "that changed it.");
            }
            return parameter.schema(string().minLength(1).maxLength(CallKey.MAX_LENGTH)
                    .addExample("8e03978e-40d5-43e8-bc93-6894a57f9324"));
        }
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
