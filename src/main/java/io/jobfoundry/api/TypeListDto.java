package io.jobfoundry.api;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/** {@code GET /v1/types}: every known type, in name order. */
@RegisterForReflection
public record TypeListDto(List<TypeDto> types) {
}
