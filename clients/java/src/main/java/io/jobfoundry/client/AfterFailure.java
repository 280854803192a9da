package io.jobfoundry.client;

/** What becomes of a job with {@code after} when a job it waits for fails, is cancelled or is removed. */
public enum AfterFailure {
    /** The dependent job finishes {@code cancelled}, its {@code lastError} naming the one that did not succeed (the default). */
    CANCEL("cancel"),
    /** The dependent job stops waiting for that one and runs once the others have succeeded. */
    RUN("run");

    private final String wireName;

    AfterFailure(String wireName) {
        this.wireName = wireName;
    }

    /** @return the name on the wire, e.g. {@code cancel} */
    public String wireName() {
        return wireName;
    }
}
