package io.jobfoundry.client;

/**
 * Root of every exception this library throws: a call that failed after its retries (the service
 * unreachable, a lost connection, an unreadable answer), or, as {@link ProblemException}, a call the
 * service refused with a problem document.
 */
public class JobfoundryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * A failure with a message.
     *
     * @param message what failed
     */
    public JobfoundryException(String message) {
        super(message);
    }

    /**
     * A failure caused by another exception (an I/O error, an interrupted call).
     *
     * @param message what failed
     * @param cause why
     */
    public JobfoundryException(String message, Throwable cause) {
        super(message, cause);
    }
}
