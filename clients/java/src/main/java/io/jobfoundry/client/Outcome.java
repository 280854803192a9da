package io.jobfoundry.client;

/** What a processor reports when it finishes a job. */
public enum Outcome {
    /** The job is done (or runs again if it repeats or was resubmitted). */
    SUCCEEDED("succeeded"),
    /** The attempt failed; the job retries after its type's backoff while attempts remain. */
    FAILED("failed");

    private final String wireName;

    Outcome(String wireName) {
        this.wireName = wireName;
    }

    /** @return the name on the wire */
    public String wireName() {
        return wireName;
    }
}
