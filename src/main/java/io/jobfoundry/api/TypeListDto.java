package io.jobfoundry.api;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** {@code GET /v1/types}: every known type, in name order. */
@RegisterForReflection
@Schema(name = "TypeList", requiredProperties = "types")
public record TypeListDto(List<TypeDto> types) {
}
