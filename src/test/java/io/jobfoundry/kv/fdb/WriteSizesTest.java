package io.jobfoundry.kv.fdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.StoreLimitException;
import io.jobfoundry.kv.StoreLimitException.Limit;
import org.junit.jupiter.api.Test;

class WriteSizesTest {

    /** FoundationDB's KEY_SIZE_LIMIT, which it applies to the key it receives, prefix included. */
    private static final int FDB_KEY_SIZE_LIMIT = 10_000;

    private final WriteSizes writes = new WriteSizes("fdb test");

    @Test
    void writesAtTheLimitsAreAccepted() {
        writes.write(KvTransaction.MAX_KEY_BYTES, KvTransaction.MAX_VALUE_BYTES);

        assertEquals(KvTransaction.MAX_KEY_BYTES + KvTransaction.MAX_VALUE_BYTES, writes.total());
    }

    @Test
    void anOversizedKeyIsRefusedWithItsSize() {
        StoreLimitException e =
                assertThrows(StoreLimitException.class, () -> writes.write(KvTransaction.MAX_KEY_BYTES + 1, 1));

        assertEquals(Limit.KEY_SIZE, e.limit());
        assertEquals(KvTransaction.MAX_KEY_BYTES + 1, e.size());
        assertEquals(0, writes.total());
    }

    @Test
    void anOversizedValueIsRefusedWithItsSize() {
        StoreLimitException e =
                assertThrows(StoreLimitException.class, () -> writes.write(1, KvTransaction.MAX_VALUE_BYTES + 1));

        assertEquals(Limit.VALUE_SIZE, e.limit());
        assertEquals(KvTransaction.MAX_VALUE_BYTES + 1, e.size());
    }

    @Test
    void theWriteThatOverflowsTheTransactionIsRefused() {
        int perWrite = 10 + 90_000;
        int fitting = KvTransaction.MAX_TRANSACTION_BYTES / perWrite;
        for (int i = 0; i < fitting; i++) {
            writes.write(10, 90_000);
        }

        StoreLimitException e = assertThrows(StoreLimitException.class, () -> writes.write(10, 90_000));

        assertEquals(Limit.TRANSACTION_SIZE, e.limit());
        assertEquals((long) (fitting + 1) * perWrite, e.size());
        assertEquals((long) fitting * perWrite, writes.total());
    }

    @Test
    void theKeyLimitIsOnTheKeyAsGivenSoAnyAllowedPrefixStillFitsFoundationDb() {
        for (int prefix : new int[] {FdbOptions.defaultKeyPrefix().length, KvTransaction.MAX_KEY_PREFIX_BYTES}) {
            WriteSizes prefixed = new WriteSizes("fdb test", prefix);

            prefixed.write(KvTransaction.MAX_KEY_BYTES, 1);
            StoreLimitException e =
                    assertThrows(StoreLimitException.class, () -> prefixed.write(KvTransaction.MAX_KEY_BYTES + 1, 1));

            assertEquals(KvTransaction.MAX_KEY_BYTES + 1, e.size(), "sized as the embedded store sizes it");
            assertEquals(prefix + KvTransaction.MAX_KEY_BYTES + 1, prefixed.total(), "FDB receives the prefix too");
            assertTrue(prefix + KvTransaction.MAX_KEY_BYTES <= FDB_KEY_SIZE_LIMIT, "FDB takes the longest key");
        }
    }

    @Test
    void clearsCountTowardsTheTransaction() {
        writes.clear(KvTransaction.MAX_TRANSACTION_BYTES);

        assertThrows(StoreLimitException.class, () -> writes.clear(1));
    }
}
