package io.jobfoundry.api;

import io.jobfoundry.JobfoundryException;

/** {@code GET /v1/types/{type}} of a type that was never used or configured. Answered {@code 404}. */
final class TypeNotFoundException extends JobfoundryException {

    TypeNotFoundException(String type) {
        super("no job of type " + Problems.printable(type) + " was ever added and the type was never configured",
                false);
    }
}
