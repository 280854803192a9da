package io.jobfoundry;

/**
 * The root of Jobfoundry's one unchecked error hierarchy.
 *
 * <p>Store failures live under {@code kv}, expected job outcomes (halts, unknown jobs, invalid
 * input) under {@code jobs} and {@code repeat}. Messages are static text; the variable parts are
 * fields, so that logs and problem documents can show them without parsing.
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
