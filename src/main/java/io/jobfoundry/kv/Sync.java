package io.jobfoundry.kv;

/**
 * When a commit must be on stable storage, relative to its acknowledgment. FoundationDB makes
 * every commit durable before it answers, so it treats both alike; the embedded store can answer a
 * {@link #DEFERRABLE} commit before syncing it.
 */
public enum Sync {
    /** Synced before the commit is acknowledged (where the store is configured to sync at all). */
    ON_COMMIT,
    /**
     * May be acknowledged before it is synced: a power failure (not a crash of the process) can
     * lose it. Never reordered: a later synced commit makes it durable too. For writes whose loss
     * is detected and harmless — a lease that is lost makes its holder's next call fail, and the
     * job runs again, as it would if its worker had died.
     */
    DEFERRABLE
}
