package io.jobfoundry.api;

/**
 * The problem types of this API (RFC 9457 {@code type}): tag URIs, identifiers that are not meant
 * to be dereferenced; docs/api.md lists them. Errors of HTTP itself (an unknown path, a wrong
 * method) use {@code about:blank} with the status phrase as title.
 */
enum ProblemType {
    INVALID_REQUEST(400, "invalid-request", "The request is invalid"),
    UNAUTHORIZED(401, "unauthorized", "A valid token is required"),
    FORBIDDEN(403, "forbidden", "Not allowed for this token"),
    JOB_NOT_FOUND(404, "job-not-found", "No such job"),
    TYPE_NOT_FOUND(404, "type-not-found", "No such type"),
    HALT(409, "halt", "The lease is no longer valid: stop working on the job"),
    CONFLICT(409, "conflict", "The job's state does not allow this change"),
    TYPE_IN_USE(409, "type-in-use", "The type still has jobs"),
    DATA_TOO_LARGE(413, "data-too-large", "The job's data is too large"),
    BODY_TOO_LARGE(413, "body-too-large", "The request body is too large"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported-media-type", "Request bodies are JSON"),
    INTERNAL_ERROR(500, "internal-error", "Internal error"),
    STORE_FAILED(500, "store-failed", "The store failed and cannot serve until the service restarts"),
    STORE_UNAVAILABLE(503, "store-unavailable", "The store is unavailable; try again later");

    static final String PREFIX = "tag:jobfoundry.io,2026:problem/";

    private final int status;
    private final String uri;
    private final String title;

    ProblemType(int status, String slug, String title) {
        this.status = status;
        this.uri = PREFIX + slug;
        this.title = title;
    }

    int status() {
        return status;
    }

    String uri() {
        return uri;
    }

    String title() {
        return title;
    }
}
