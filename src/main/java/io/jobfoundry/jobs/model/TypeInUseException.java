package io.jobfoundry.jobs.model;

/**
 * A type cannot be deleted while any job of it exists, finished ones kept by retention included:
 * deleting it would drop the settings those jobs run, retry and are kept by.
 */
public final class TypeInUseException extends JobException {

    private final Counts counts;

    public TypeInUseException(String type, Counts counts) {
        super("type " + type + " still has jobs (" + counts.pending() + " pending, " + counts.running() + " running, "
                + (counts.succeeded() + counts.failed() + counts.cancelled()) + " finished): remove them first, "
                + "e.g. POST /v1/bulk {\"action\":\"remove\",\"filter\":{\"type\":\"" + type + "\"}}", type, null);
        this.counts = counts;
    }

    /** The type's jobs by state as the refusal found them. */
    public Counts counts() {
        return counts;
    }
}
