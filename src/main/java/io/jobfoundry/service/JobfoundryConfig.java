package io.jobfoundry.service;

import io.jobfoundry.kv.embedded.Durability;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithConverter;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Jobfoundry's configuration. The names under {@code jobfoundry.store}, {@code .embedded.path} and
 * {@code .fdb.cluster-file} are fixed: scripts and manifests rely on them. Each also works as an
 * environment variable ({@code JOBFOUNDRY_STORE}, {@code JOBFOUNDRY_EMBEDDED_PATH}, ...).
 */
@ConfigMapping(prefix = "jobfoundry")
public interface JobfoundryConfig {

    /** Which store holds the jobs. */
    enum StoreKind { EMBEDDED, FDB }

    /** {@code embedded} (one process, nothing to install) or {@code fdb} (a FoundationDB cluster). */
    @WithDefault("embedded")
    StoreKind store();

    Embedded embedded();

    Fdb fdb();

    Transaction transaction();

    Health health();

    Monitor monitor();

    interface Embedded {
        /** The SQLite file; its folders are created. */
        @WithDefault("data/jobfoundry.db")
        Path path();

        /** {@code fsync}: a commit survives power loss; {@code os}: it survives a crash of the process. */
        @WithDefault("fsync")
        Durability durability();

        /** The most transactions committed together in one batch (group commit). */
        @WithDefault("1024")
        int maxBatch();

        /** The most the file may grow to; beyond it writes fail with 503 instead of filling the disk. */
        Optional<MemorySize> maxSize();
    }

    interface Fdb {
        /** The cluster file; FoundationDB's default when unset. */
        Optional<String> clusterFile();

        /** The tuple-encoded prefix under which all of Jobfoundry's keys live in the cluster. */
        @WithDefault("jobfoundry")
        String keyPrefix();
    }

    interface Transaction {
        /** The time one attempt of a transaction may take (FoundationDB allows 5 s). */
        @WithDefault("5s")
        Duration timeout();

        /** Attempts of one transaction before it fails with 503. */
        @WithDefault("100")
        int maxAttempts();
    }

    interface Health {
        /** How long readiness waits for the store to answer. */
        @WithDefault("2s")
        Duration storeTimeout();
    }

    interface Monitor {
        /**
         * The longest interval between two looks of the activity monitor for running jobs whose
         * processor went quiet; it looks every tenth of the shortest activity timeout (at most
         * every 100 ms) when that is sooner.
         */
        @WithDefault("1s")
        Duration activityInterval();

        /**
         * The longest the due timer sleeps. It wakes at each scheduled job's time and whenever a
         * job is scheduled, so this is only a safety net.
         */
        @WithDefault("1s")
        Duration dueInterval();

        /**
         * How often finished jobs past their type's retention are removed (so a retention of 0
         * removes a job within this of its finish). Read by the scheduler as
         * {@code jobfoundry.monitor.retention-interval}.
         */
        @WithDefault("5s")
        Duration retentionInterval();

        /** Whether the monitors run; tests switch them off and drive {@code runOnce()} themselves. */
        @WithDefault("true")
        @WithConverter(StrictBoolean.class)
        boolean enabled();
    }
}
