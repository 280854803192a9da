package io.jobfoundry.api;

import io.jobfoundry.JobfoundryException;

/** A request body over {@code jobfoundry.api.max-body-size}. Answered {@code 413}. */
final class BodyTooLargeException extends JobfoundryException {

    private final long limit;

    BodyTooLargeException(long limit) {
        super(detail(limit), false);
        this.limit = limit;
    }

    /** What a client is told, wherever the body is refused (Problems#bodyTooLarge). */
    static String detail(long limit) {
        return "request body larger than " + limit + " bytes";
    }

    long limit() {
        return limit;
    }
}
