package io.jobfoundry.api;

/** A request body that is not declared as JSON. Answered {@code 415}. */
final class UnsupportedBodyTypeException extends RuntimeException {

    UnsupportedBodyTypeException(String contentType) {
        super("request bodies are application/json, not " + Problems.printable(contentType), null, false, false);
    }
}
