package io.jobfoundry.jobs.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.RateLimit;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.KvReads;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Type settings as stored: limits at places 10 and 11, and settings of earlier releases read as no limit. */
class TypeRegistryTest {

    private static KvReads holding(byte[] value) {
        return new KvReads() {
            @Override
            public byte[] get(byte[] key) {
                return value;
            }

            @Override
            public List<KeyValue> getRange(byte[] begin, byte[] end, int limit, boolean reverse) {
                return List.of();
            }
        };
    }

    @Test
    void settingsOfTheReleaseBeforeLimitsReadAsUnlimited() {
        // As that release wrote them: format, durations and counts, paused, retention, push.
        byte[] stored = Tuple.from(1L, 30_000L, 25L, 2L, 1L, 5_000L, 3_600_000L, false,
                Tuple.from(86_400_000L, null, 0L), null).pack();
        TypeSettings settings = TypeRegistry.lookup(holding(stored), "any").settings();
        assertEquals(Concurrency.NONE, settings.concurrency());
        assertNull(settings.rateLimit());
    }

    @Test
    void limitsReadBack(@TempDir Path folder) {
        TypeSettings limited = TypeSettings.DEFAULT.withLimits(new Concurrency(null, 2),
                new RateLimit(10, Duration.ofMillis(2500), true));
        try (KvStore store = EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("t.db")).withDurability(Durability.OS))) {
            byte[] written = store.runOnce(tx -> {
                TypeRegistry.put(tx, "any", limited);
                return tx.get(JobKeys.type("any"));
            }, Duration.ofSeconds(30));
            assertEquals(limited, TypeRegistry.lookup(holding(written), "any").settings());
            Tuple t = Tuple.fromBytes(written);
            assertEquals(Tuple.from(null, 2L), t.getNestedTuple(10), "concurrency at place 10");
            assertEquals(Tuple.from(10L, 2500L, true), t.getNestedTuple(11), "rate limit at place 11");
        }
    }
}
