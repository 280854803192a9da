package io.jobfoundry.api;

import io.jobfoundry.auth.Caller;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /v1/me}: who the service takes the caller for. The dashboard shows only the actions
 * the caller's roles allow; a script can check its token. Not in API.md: an addition of this
 * service, listed in docs/api.md.
 */
@Path("/v1/me")
@Produces(MediaType.APPLICATION_JSON)
public class MeResource {

    private final SecurityIdentity identity;

    MeResource(SecurityIdentity identity) {
        this.identity = identity;
    }

    @Operation(operationId = "me", summary = "The caller: its token's name, roles and types",
            description = "roles are the effective ones (admin includes the others, producer and worker include "
                    + "viewer); types is null when the token may use every type. Open mode and loopback without "
                    + "tokens answer the name anonymous with every role.")
    @Tag(name = "Access")
    @APIResponse(responseCode = "200", description = "The caller",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Me.class)))
    @GET
    @Authenticated
    public Me me() {
        return new Me(Caller.name(identity), Caller.roles(identity), Caller.scope(identity).globs());
    }

    /** {@code types}: null for every type. */
    @RegisterForReflection
    @Schema(name = "Me", requiredProperties = {"name", "roles", "types"})
    public record Me(String name, List<String> roles, @Schema(nullable = true) List<String> types) {
    }
}
