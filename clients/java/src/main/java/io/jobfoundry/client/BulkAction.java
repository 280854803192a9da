package io.jobfoundry.client;

/** What {@link Operations#bulk} does to every job its filter matches, each as the single call does it. */
public enum BulkAction {
    /** As {@link JobfoundryClient#cancel}: a running job's processor is halted. */
    CANCEL("cancel"),
    /** A finished job runs again as a fresh run, as a {@code PUT} of it does; jobs not finished are left alone. */
    RETRY("retry"),
    /** As {@link JobfoundryClient#remove}: every trace of the job goes. */
    REMOVE("remove");

    private final String wireName;

    BulkAction(String wireName) {
        this.wireName = wireName;
    }

    /** @return the name on the wire, e.g. {@code cancel} */
    public String wireName() {
        return wireName;
    }
}
