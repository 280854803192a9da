package io.jobfoundry.service;

import io.jobfoundry.api.ApiConfig;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * Opens the configured store once, at start, so that a wrong path or an unreachable cluster stops
 * the service with a clear message instead of failing its first request; closes it on shutdown.
 */
@ApplicationScoped
public class StoreProducer {

    private static final Logger LOG = Logger.getLogger(StoreProducer.class);

    @Produces
    @Singleton
    @Startup
    KvStore store(JobfoundryConfig config, ApiConfig api, MeterRegistry registry) {
        ConfigCheck.require(config, api);
        KvStore store = switch (config.store()) {
            case EMBEDDED -> openEmbedded(config.embedded(), DistributionSummary.builder("jobfoundry.store.commit.batch")
                    .description("Transactions made durable together by one sync of the embedded store (group commit)")
                    .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024).register(registry));
            case FDB -> FdbStoreOpener.open(config.fdb());
        };
        LOG.infof("Jobfoundry store: %s", store.describe());
        return store;
    }

    private static KvStore openEmbedded(JobfoundryConfig.Embedded embedded, DistributionSummary batches) {
        EmbeddedOptions options = new EmbeddedOptions(embedded.path(), embedded.durability(), embedded.maxBatch(),
                embedded.maxSize().map(MemorySize::asLongValue).orElse(0L));
        return EmbeddedStore.open(options, batches::record);
    }

    /**
     * Disposed after the HTTP server has let in-flight requests finish. FoundationDB's network is
     * stopped here, after the store, and not by fdb-java's shutdown hook, which would stop it under
     * those requests' transactions; see {@link #stopsFdbClient} for when.
     */
    void close(@Disposes KvStore store, JobfoundryConfig config) {
        closeThen(store, stopsFdbClient(config.store(), LaunchMode.current()) ? () -> FdbStoreOpener.stopClient()
                : () -> { });
    }

    /**
     * Whether disposing the store stops FoundationDB's network: only when the process is ending, in
     * a normal run. Dev mode starts the application again in the same JVM on every live reload, and
     * tests once per profile, while fdb-java (whose FDB singleton owns the network) stays loaded
     * across those restarts, and a stopped network cannot be started again. There the network is
     * left running: its thread is a daemon and fdb-java's shutdown hook is disabled, so it keeps
     * nothing alive.
     */
    static boolean stopsFdbClient(JobfoundryConfig.StoreKind store, LaunchMode mode) {
        return store == JobfoundryConfig.StoreKind.FDB && mode == LaunchMode.NORMAL;
    }

    /** Closes {@code store}, then runs {@code afterwards}, even if closing it failed. */
    static void closeThen(KvStore store, Runnable afterwards) {
        try {
            store.close();
            LOG.infof("Jobfoundry store closed: %s", store.describe());
        } finally {
            afterwards.run();
        }
    }

    @Produces
    @Singleton
    TransactionRunner runner(KvStore store, JobfoundryConfig config) {
        Duration timeout = config.transaction().timeout();
        return new TransactionRunner(store, new RetryPolicy(config.transaction().maxAttempts(), timeout,
                RetryPolicy.DEFAULT.initialBackoff(), RetryPolicy.DEFAULT.maxBackoff(),
                RetryPolicy.DEFAULT.throttledBackoff()));
    }
}
