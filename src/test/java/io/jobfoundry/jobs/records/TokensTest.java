package io.jobfoundry.jobs.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.jobs.model.CallKey;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TokensTest {

    /** A client's repeat carries its key and a random part of its own; the store's retry, the same nonce. */
    @Test
    void aNonceIsOfTheSameCallAsItsRetryAndAsARepeatUnderTheSameKeyOnly() {
        String service = Tokens.nonce(null);
        assertTrue(Tokens.sameCall(service, service));
        assertFalse(Tokens.sameCall(service, Tokens.nonce(null)));
        assertFalse(Tokens.keyed(service));

        CallKey key = new CallKey("a/b/c"); // a key may hold the separator itself
        String first = Tokens.nonce(key);
        String repeat = Tokens.nonce(key);
        assertNotEquals(first, repeat, "each call's nonce is its own: an origin stays unique");
        assertTrue(Tokens.keyed(first));
        assertTrue(Tokens.sameCall(first, repeat));
        assertFalse(Tokens.sameCall(first, Tokens.nonce(new CallKey("a/b"))));
        assertFalse(Tokens.sameCall(first, Tokens.nonce(new CallKey("a/b/c/"))));
        assertFalse(Tokens.sameCall(first, Tokens.itemNonce(key, 0)));
        assertTrue(Tokens.sameCall(Tokens.itemNonce(key, 3), Tokens.itemNonce(key, 3)));
        assertFalse(Tokens.sameCall(Tokens.itemNonce(key, 3), Tokens.itemNonce(key, 4)));
        assertFalse(Tokens.sameCall(null, first));
    }

    @Test
    void theSortableEncodingOrdersStringsAsItsBytesAreOrdered() {
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            byte[] a = new byte[16];
            byte[] b = new byte[16];
            random.nextBytes(a);
            random.nextBytes(b);
            if (i % 3 == 0) {
                System.arraycopy(a, 0, b, 0, random.nextInt(16)); // shared prefixes, as ids of one millisecond have
            }
            int bytes = Integer.signum(Arrays.compareUnsigned(a, b));
            int strings = Integer.signum(Tokens.sortable(a).compareTo(Tokens.sortable(b)));
            assertEquals(bytes, strings, () -> Arrays.toString(a) + " vs " + Arrays.toString(b));
        }
    }

    @Test
    void jobIdsSortByTheirMillisecondAndAreUrlSafe() {
        long t = 1_790_000_000_000L;
        String earlier = Tokens.jobId(t);
        String later = Tokens.jobId(t + 1);
        assertTrue(earlier.compareTo(later) < 0, earlier + " should sort before " + later);
        assertTrue(Tokens.jobId(0).compareTo(Tokens.jobId((1L << 48) - 1)) < 0);
        assertTrue(earlier.matches("[0-9A-Za-z_~]{22}"), earlier);
        // The first 8 characters are the 48-bit time: equal for one millisecond, the rest random.
        assertEquals(earlier.substring(0, 8), Tokens.jobId(t).substring(0, 8));
    }

    @Test
    void jobIdsOfOneMillisecondDiffer() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(Tokens.jobId(7));
        }
        assertEquals(10_000, ids.size());
        assertNotEquals(Tokens.next(), Tokens.next());
    }
}
