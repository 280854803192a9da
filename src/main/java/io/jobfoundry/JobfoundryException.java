package io.jobfoundry;

/**
 * The root of Jobfoundry's one unchecked error hierarchy.
 *
 * <p>Store failures live under {@code kv} ({@code StoreException}: temporary ones are a
 * {@code 503}, a store broken until restart a {@code 500}); expected job outcomes (halts, unknown
 * jobs, invalid input) under {@code jobs.model} and {@code repeat}; what the HTTP layer refuses
 * before the engine sees it (a body that is not JSON, too large, an unknown member) under
 * {@code api}. Messages are static text; the variable parts are fields, so that logs and problem
 * documents can show them without parsing. Only the exception mappers turn them into HTTP.
 */
public abstract class JobfoundryException extends RuntimeException {

    protected JobfoundryException(String message) {
        super(message);
    }

    protected JobfoundryException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * For outcomes a client is told about, not defects: no stack trace is taken. Halts and unknown
     * jobs are everyday answers to workers, and filling in a stack trace cost more than the rest
     * of such a request.
     */
    protected JobfoundryException(String message, boolean stackTrace) {
        super(message, null, false, stackTrace);
    }
}
