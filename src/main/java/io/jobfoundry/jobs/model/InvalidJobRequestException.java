package io.jobfoundry.jobs.model;

/** A request the engine refuses outright (a bad name, a bad value); nothing was changed. */
public final class InvalidJobRequestException extends JobException {

    private final String field;

    public InvalidJobRequestException(String field, String message) {
        super(message, null, null);
        this.field = field;
    }

    /** The request member at fault. */
    public String field() {
        return field;
    }
}
