package io.jobfoundry.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import io.quarkus.runtime.StartupEvent;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DOWN side of the probes, which a running test application cannot show: not started, store gone. */
class HealthChecksTest {

    @TempDir
    Path folder;

    @Test
    void notStartedUntilStartupCompletes() {
        StartedCheck check = new StartedCheck();
        assertEquals(HealthCheckResponse.Status.DOWN, check.call().getStatus());
        check.started(new StartupEvent());
        assertEquals(HealthCheckResponse.Status.UP, check.call().getStatus());
    }

    @Test
    void notReadyWhenTheStoreDoesNotAnswer() {
        KvStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS));
        StoreReadiness readiness = new StoreReadiness(store, healthTimeout(Duration.ofSeconds(1)));
        HealthCheckResponse up = readiness.call();
        assertEquals(HealthCheckResponse.Status.UP, up.getStatus());
        assertEquals("embedded", up.getData().orElseThrow().get("store"), "the kind of store, not its file");
        store.close();
        HealthCheckResponse closed = readiness.call();
        assertEquals(HealthCheckResponse.Status.DOWN, closed.getStatus());
        assertEquals("the embedded store is closed", closed.getData().orElseThrow().get("error"));
    }

    /**
     * Readiness answers within jobfoundry.health.store-timeout whatever the store does: the probe's own timeout is
     * set just above it, and a probe that times out says nothing of why.
     */
    @Test
    void notReadyWithinTheStoreTimeoutWhenTheStoreHangs() {
        KvStore hanging = new KvStore() {
            @Override
            public <T> T runOnce(io.jobfoundry.kv.TransactionBody<T> body, Duration timeout) {
                throw new UnsupportedOperationException();
            }

            @Override
            public <T> java.util.concurrent.CompletableFuture<T> runOnceAsync(io.jobfoundry.kv.TransactionBody<T> body,
                    Duration timeout, io.jobfoundry.kv.Sync sync) {
                return new java.util.concurrent.CompletableFuture<>(); // an attempt that never ends
            }

            @Override
            public String describe() {
                return "hanging";
            }

            @Override
            public void close() {
            }
        };
        long started = System.nanoTime();
        HealthCheckResponse slow = new StoreReadiness(hanging, healthTimeout(Duration.ofMillis(300))).call();
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertEquals(HealthCheckResponse.Status.DOWN, slow.getStatus());
        assertEquals("the store did not answer within 300 ms", slow.getData().orElseThrow().get("error"));
        assertTrue(tookMillis < 2_000, "answered after " + tookMillis + " ms");
    }

    /** A store closed for now is readiness' business; one that takes no more work until a restart is liveness'. */
    @Test
    void notLiveOnlyWhenTheStoreNeedsARestart() {
        KvStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS));
        assertEquals(HealthCheckResponse.Status.UP, new StoreLiveness(store, EMBEDDED).call().getStatus());
        store.close();
        assertEquals(HealthCheckResponse.Status.UP, new StoreLiveness(store, EMBEDDED).call().getStatus(), "closed, not broken");
        KvStore needsRestart = new KvStore() {
            @Override
            public <T> T runOnce(io.jobfoundry.kv.TransactionBody<T> body, Duration timeout) {
                throw new UnsupportedOperationException();
            }

            @Override
            public String describe() {
                return "broken";
            }

            @Override
            public java.util.Optional<String> failedForGood() {
                return java.util.Optional.of("could not sync its log; restart the service");
            }

            @Override
            public void close() {
            }
        };
        HealthCheckResponse down = new StoreLiveness(needsRestart, EMBEDDED).call();
        assertEquals(HealthCheckResponse.Status.DOWN, down.getStatus());
        assertEquals("could not sync its log; restart the service", down.getData().orElseThrow().get("error"));
    }

    private static final JobfoundryConfig EMBEDDED = healthTimeout(Duration.ofSeconds(2));

    /** The checks read only {@code jobfoundry.store} and {@code jobfoundry.health.store-timeout}. */
    private static JobfoundryConfig healthTimeout(Duration timeout) {
        return (JobfoundryConfig) Proxy.newProxyInstance(JobfoundryConfig.class.getClassLoader(),
                new Class<?>[] {JobfoundryConfig.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "store" -> JobfoundryConfig.StoreKind.EMBEDDED;
                    case "health" -> (JobfoundryConfig.Health) () -> timeout;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
