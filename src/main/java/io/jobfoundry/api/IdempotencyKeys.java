package io.jobfoundry.api;

import io.jobfoundry.jobs.model.CallKey;
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
        return new CallKey(value); // a malformed one is refused there, naming the header
    }

    /**
     * Refuses the header, saying {@code why}, where a key would promise what the call cannot keep:
     * a create with a generated id (its repeat generates another id) and a bulk action (its repeat
     * acts on what matches then). Other calls are safe to repeat as they are and ignore it.
     */
    static void refuse(HttpServerRequest request, String why) {
        if (request.headers().contains(HEADER)) {
            throw new InvalidInputException(HEADER, HEADER + " is not taken here: " + why);
        }
    }
}
