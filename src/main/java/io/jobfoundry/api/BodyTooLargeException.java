package io.jobfoundry.api;

/** A request body over {@code jobfoundry.api.max-body-size}. Answered {@code 413}. */
final class BodyTooLargeException extends RuntimeException {

    private final long limit;

    BodyTooLargeException(long limit) {
        super("request body larger than " + limit + " bytes", null, false, false);
        this.limit = limit;
    }

    long limit() {
        return limit;
    }
}
