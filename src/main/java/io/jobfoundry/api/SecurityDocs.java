package io.jobfoundry.api;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Operation;

/**
 * Every operation can answer {@code 401} and {@code 403} (role checks, type scopes, protected
 * mode): documented once here, as the problem responses of openapi.yaml, instead of on each
 * method; this also replaces the bodiless ones Quarkus adds for {@code @RolesAllowed}.
 */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class SecurityDocs implements OASFilter {

    @Override
    public Operation filterOperation(Operation operation) {
        if (operation.getResponses() != null) {
            operation.getResponses()
                    .addAPIResponse("401", OASFactory.createAPIResponse().ref("Unauthorized"))
                    .addAPIResponse("403", OASFactory.createAPIResponse().ref("Forbidden"));
        }
        return operation;
    }
}
