package io.jobfoundry.service;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.StoreException;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready only while the store answers a read transaction within the configured time. The check names the
 * kind of store only: probes need no token, and the file or cluster file it runs on is for the log.
 */
@Readiness
@ApplicationScoped
public class StoreReadiness implements HealthCheck {

    private static final byte[] PROBE_KEY = Tuple.from("health").pack();

    private final KvStore store;
    private final JobfoundryConfig config;

    StoreReadiness(KvStore store, JobfoundryConfig config) {
        this.store = store;
        this.config = config;
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("store").withData("store", StoreLiveness.kind(config));
        long started = System.nanoTime();
        try {
            store.runOnce(tx -> tx.get(PROBE_KEY), config.health().storeTimeout());
            return response.withData("millis", (System.nanoTime() - started) / 1_000_000).up().build();
        } catch (StoreException e) {
            return response.withData("error", e.getMessage()).down().build();
        }
    }
}
