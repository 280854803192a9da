package io.jobfoundry.api;

/** A request body over {@code jobfoundry.api.max-body-size}. Answered {@code 413}. */
final class BodyTooLargeException extends RuntimeException {

    private final long limit;

    BodyTooLargeException(long limit) {
        super(detail(limit), null, false, false);
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
