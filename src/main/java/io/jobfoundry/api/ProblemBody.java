package io.jobfoundry.api;

/**
 * A problem document rendered to JSON, as the entity of an error response. {@link ProblemBodyWriter}
 * writes it and gives the response its type, {@code application/problem+json}.
 */
record ProblemBody(byte[] json) {
}
