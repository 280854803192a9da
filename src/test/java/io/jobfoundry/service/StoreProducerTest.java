package io.jobfoundry.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.TransactionBody;
import io.quarkus.runtime.LaunchMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Closing the store at shutdown: FoundationDB's network, which cannot be started again in the same
 * JVM, is stopped only when the process ends, and after the store, even if closing it failed.
 */
class StoreProducerTest {

    @Test
    void onlyANormalRunOnFoundationDbStopsItsNetwork() {
        assertTrue(StoreProducer.stopsFdbClient(JobfoundryConfig.StoreKind.FDB, LaunchMode.NORMAL));
        assertFalse(StoreProducer.stopsFdbClient(JobfoundryConfig.StoreKind.FDB, LaunchMode.DEVELOPMENT),
                "a live reload starts the application again in this JVM");
        assertFalse(StoreProducer.stopsFdbClient(JobfoundryConfig.StoreKind.FDB, LaunchMode.TEST));
        assertFalse(StoreProducer.stopsFdbClient(JobfoundryConfig.StoreKind.EMBEDDED, LaunchMode.NORMAL));
    }

    @Test
    void whatComesAfterTheStoreRunsEvenIfClosingItFailed() {
        List<String> steps = new ArrayList<>();
        StoreException broken = new StoreException("close failed", "test", null);
        KvStore store = new KvStore() {
            @Override
            public <T> T runOnce(TransactionBody<T> body, Duration timeout) {
                throw new AssertionError("not used");
            }

            @Override
            public String describe() {
                return "test";
            }

            @Override
            public void close() {
                steps.add("store closed");
                throw broken;
            }
        };

        assertSame(broken, assertThrows(StoreException.class,
                () -> StoreProducer.closeThen(store, () -> steps.add("network stopped"))));
        assertEquals(List.of("store closed", "network stopped"), steps);
    }
}
