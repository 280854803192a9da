package io.jobfoundry.kv.fdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.apple.foundationdb.FDBException;
import io.jobfoundry.kv.KvTransaction;
import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.RetryableStoreException.Reason;
import io.jobfoundry.kv.StoreException;
import io.jobfoundry.kv.StoreLimitException;
import io.jobfoundry.kv.StoreLimitException.Limit;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The FDB error table. {@link FDBException} is a plain Java class, constructible without libfdb_c,
 * so these run everywhere; only FDB's own predicates need the native client, and they are given
 * here as the classification they would answer.
 */
class FdbErrorsTest {

    private static final String STORE = "fdb test cluster";

    /** The named codes must be decided without the native client, which may not be loaded. */
    private static final FdbErrors.Predicates MUST_NOT_BE_ASKED = new FdbErrors.Predicates() {
        @Override
        public boolean isRetryable(FDBException e) {
            throw new AssertionError("asked libfdb_c about " + e.getCode());
        }

        @Override
        public boolean isMaybeCommitted(FDBException e) {
            throw new AssertionError("asked libfdb_c about " + e.getCode());
        }
    };

    private static FdbErrors.Predicates fdbSays(boolean retryable, boolean maybeCommitted) {
        return new FdbErrors.Predicates() {
            @Override
            public boolean isRetryable(FDBException e) {
                return retryable;
            }

            @Override
            public boolean isMaybeCommitted(FDBException e) {
                return maybeCommitted;
            }
        };
    }

    private static StoreException map(FdbErrors.Predicates predicates, Throwable failure) {
        return new FdbErrors(STORE, predicates).map(failure, new WriteSizes(STORE));
    }

    @ParameterizedTest
    @CsvSource({"1020, CONFLICT", "1007, TIMEOUT", "1031, TIMEOUT", "1021, COMMIT_UNKNOWN"})
    void namedRetryableCodesKeepTheirReason(int code, Reason reason) {
        FDBException fdb = new FDBException("from fdb", code);

        RetryableStoreException e = assertInstanceOf(RetryableStoreException.class, map(MUST_NOT_BE_ASKED, fdb));

        assertEquals(reason, e.reason());
        assertTrue(e.isRetryable());
        assertSame(fdb, e.getCause());
        assertEquals(STORE, e.store());
    }

    @ParameterizedTest
    @CsvSource({"2101, TRANSACTION_SIZE", "2102, KEY_SIZE", "2103, VALUE_SIZE"})
    void limitCodesAreNotRetryable(int code, Limit limit) {
        FDBException fdb = new FDBException("from fdb", code);

        StoreLimitException e = assertInstanceOf(StoreLimitException.class, map(MUST_NOT_BE_ASKED, fdb));

        assertEquals(limit, e.limit());
        assertFalse(e.isRetryable());
        assertArrayEquals(new Throwable[] {fdb}, e.getSuppressed());
    }

    @Test
    void limitsReportedAtCommitAreSizedByWhatTheAttemptWrote() {
        WriteSizes writes = new WriteSizes(STORE);
        writes.write(100, 2_000);
        writes.write(300, 10);
        FdbErrors errors = new FdbErrors(STORE, MUST_NOT_BE_ASKED);

        assertEquals(2_410, ((StoreLimitException) errors.map(new FDBException("", 2101), writes)).size());
        assertEquals(300, ((StoreLimitException) errors.map(new FDBException("", 2102), writes)).size());
        assertEquals(2_000, ((StoreLimitException) errors.map(new FDBException("", 2103), writes)).size());
    }

    @Test
    void aCommitThatTimedOutMayHaveTakenEffect() {
        FDBException fdb = new FDBException("Operation aborted because the transaction timed out", 1031);
        FdbErrors errors = new FdbErrors(STORE, MUST_NOT_BE_ASKED);

        RetryableStoreException e = (RetryableStoreException) errors.mapCommit(new CompletionException(fdb), new WriteSizes(STORE));

        assertEquals(Reason.COMMIT_UNKNOWN, e.reason());
        assertSame(fdb, e.getCause());
    }

    @ParameterizedTest
    @CsvSource({"1020, CONFLICT", "1007, TIMEOUT", "1021, COMMIT_UNKNOWN"})
    void otherCommitFailuresMapAsAnyCall(int code, Reason reason) {
        FdbErrors errors = new FdbErrors(STORE, MUST_NOT_BE_ASKED);

        StoreException e = errors.mapCommit(new FDBException("", code), new WriteSizes(STORE));

        assertEquals(reason, ((RetryableStoreException) e).reason());
    }

    @ParameterizedTest
    @CsvSource({"1037, process_behind", "1042, commit_proxy_memory_limit_exceeded", "1051, batch_transaction_throttled",
            "1078, grv_proxy_memory_limit_exceeded", "1213, tag_throttled", "1223, proxy_tag_throttled",
            "1235, transaction_throttled_hot_shard"})
    void anOverloadedOrThrottlingClusterIsThrottledWithoutAskingLibfdbC(int code, String name) {
        FDBException fdb = new FDBException(name, code);
        FdbErrors errors = new FdbErrors(STORE, MUST_NOT_BE_ASKED);

        RetryableStoreException e = assertInstanceOf(RetryableStoreException.class, errors.map(fdb, new WriteSizes(STORE)));
        RetryableStoreException atCommit =
                assertInstanceOf(RetryableStoreException.class, errors.mapCommit(fdb, new WriteSizes(STORE)));

        assertEquals(Reason.THROTTLED, e.reason(), name);
        assertEquals(Reason.THROTTLED, atCommit.reason(), name + " at commit: refused, not maybe committed");
        assertSame(fdb, e.getCause());
    }

    @ParameterizedTest
    @ValueSource(ints = {1009, 1038})
    void otherCodesFdbRetriesAreTransient(int code) {
        RetryableStoreException e =
                assertInstanceOf(RetryableStoreException.class, map(fdbSays(true, false), new FDBException("", code)));

        assertEquals(Reason.TRANSIENT, e.reason());
    }

    @Test
    void otherCodesFdbRetriesButThatMayHaveCommittedAreCommitUnknown() {
        RetryableStoreException e = assertInstanceOf(
                RetryableStoreException.class, map(fdbSays(true, true), new FDBException("cluster_version_changed", 1039)));

        assertEquals(Reason.COMMIT_UNKNOWN, e.reason());
    }

    @Test
    void readingWhatTheTransactionWroteWithItsVersionstampIsRefusedAsOnTheEmbeddedStore() {
        FDBException fdb = new FDBException("Read or wrote an unreadable key", 1036);

        StoreException e = map(MUST_NOT_BE_ASKED, fdb);

        assertEquals(StoreException.class, e.getClass());
        assertFalse(e.isRetryable());
        assertEquals(KvTransaction.UNREADABLE_VERSIONSTAMP, e.getMessage());
        assertSame(fdb, e.getCause());
    }

    @Test
    void codesFdbDoesNotRetryArePlainStoreExceptions() {
        FDBException fdb = new FDBException("Key outside legal range", 2004);

        StoreException e = map(fdbSays(false, false), fdb);

        assertEquals(StoreException.class, e.getClass());
        assertFalse(e.isRetryable());
        assertSame(fdb, e.getCause());
        assertEquals("FoundationDB operation failed with error 2004", e.getMessage());
    }

    @Test
    void futureWrappersAreUnwrapped() {
        FDBException fdb = new FDBException("not_committed", 1020);

        StoreException e = map(MUST_NOT_BE_ASKED, new CompletionException(new ExecutionException(fdb)));

        assertEquals(Reason.CONFLICT, ((RetryableStoreException) e).reason());
        assertSame(fdb, e.getCause());
    }

    @Test
    void alreadyMappedFailuresPassUnchanged() {
        StoreLimitException mapped = new StoreLimitException(Limit.KEY_SIZE, 10_001, STORE);

        assertSame(mapped, map(MUST_NOT_BE_ASKED, new CompletionException(mapped)));
    }

    @Test
    void otherClientFailuresAreWrapped() {
        IllegalStateException closed = new IllegalStateException("Cannot access closed object");

        StoreException e = map(MUST_NOT_BE_ASKED, closed);

        assertEquals(StoreException.class, e.getClass());
        assertSame(closed, e.getCause());
    }

    @Test
    void errorsAreRethrownAsTheyAre() {
        OutOfMemoryError oom = new OutOfMemoryError("direct buffer memory");

        assertSame(oom, assertThrows(OutOfMemoryError.class, () -> map(MUST_NOT_BE_ASKED, new CompletionException(oom))));
    }
}
