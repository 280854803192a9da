package io.jobfoundry.service;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.Sync;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
        Duration timeout = config.health().storeTimeout();
        long started = System.nanoTime();
        // Waited for here, not by the store: a store may wait longer than its timeout for an attempt
        // it has begun (the embedded one, for a commit under way), and the probe's own timeout is set
        // just above this one, so that a slow store reads as "not ready" with a reason.
        CompletableFuture<byte[]> read;
        try {
            read = store.runOnceAsync(tx -> tx.get(PROBE_KEY), timeout, Sync.ON_COMMIT);
        } catch (StoreException e) {
            return response.withData("error", e.getMessage()).down().build();
        }
        try {
            read.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return response.withData("millis", (System.nanoTime() - started) / 1_000_000).up().build();
        } catch (TimeoutException e) {
            read.cancel(false);
            return response.withData("error", "the store did not answer within " + timeout.toMillis() + " ms")
                    .down().build();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            return response.withData("error", cause instanceof StoreException ? cause.getMessage() : cause.toString())
                    .down().build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return response.withData("error", "interrupted").down().build();
        }
    }
}
