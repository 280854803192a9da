package io.jobfoundry.api;

import io.jobfoundry.jobs.model.CallKey;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;

/**
 * The {@code Idempotency-Key} request header of the calls that add or resubmit jobs by id
 * ({@code PUT}, resubmit, the batch create): a client names a call with it and sends the same on
 * the call's repeats, so that a repeat of a call that took effect changes nothing
 * ({@link CallKey}). Written bare or as a quoted string, as the IETF draft spells it
 * ({@code Idempotency-Key: "8e03978e-…"}); both name the same key.
 */
final class IdempotencyKeys {

    static final String HEADER = "Idempotency-Key";

    private IdempotencyKeys() {
    }

    /**
     * The key the request's header names, {@code null} without the header; a malformed or repeated
     * one is a 400. Read from the request itself: JAX-RS' header parameters drop an empty header,
     * which would turn a client's empty key into no key at all.
     */
    static CallKey of(HttpServerRequest request) {
        List<String> headers = request.headers().getAll(HEADER);
        if (headers.isEmpty()) {
            return null;
        }
        String value = headers.get(0);
        if (headers.size() > 1 || value.indexOf(',') >= 0) { // two fields, or two joined into one
            throw new InvalidInputException(HEADER, HEADER + " is given once, with one key");
        }
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        try {
            return new CallKey(value);
        } catch (InvalidJobRequestException e) {
            throw new InvalidInputException(HEADER, e.getMessage());
        }
    }

    /**
     * A create with a generated id cannot be recognized when repeated (the repeat would generate
     * another id), so a key there would promise what it cannot keep: refused, pointing to PUT.
     */
    static void refuse(HttpServerRequest request) {
        if (request.headers().contains(HEADER)) {
            throw new InvalidInputException(HEADER, HEADER + " needs the job's id: add the job with "
                    + "PUT /v1/jobs/{type}/{id}, whose repeats it makes safe");
        }
    }
}
