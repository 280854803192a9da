package io.jobfoundry.api;

import io.jobfoundry.JobfoundryException;

/** A request body that is not declared as JSON. Answered {@code 415}. */
final class UnsupportedBodyTypeException extends JobfoundryException {

    UnsupportedBodyTypeException(String contentType) {
        super("request bodies are application/json, not " + Problems.printable(contentType), false);
    }
}
