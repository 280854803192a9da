package io.jobfoundry.api;

import io.jobfoundry.JobfoundryException;

/**
 * A request the API refuses before it reaches the engine: malformed JSON, a member of the wrong
 * JSON type, an unknown member or query parameter, a bad time. Answered {@code 400}.
 */
final class InvalidInputException extends JobfoundryException {

    private final String field;

    /** @param field the request member or parameter at fault, or {@code null} for the body as a whole */
    InvalidInputException(String field, String detail) {
        super(detail, false);
        this.field = field;
    }

    String field() {
        return field;
    }
}
