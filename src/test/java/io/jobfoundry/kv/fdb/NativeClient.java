package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.FDB;
import com.apple.foundationdb.FDBException;
import java.util.Optional;

/**
 * Whether fdb-java's native side (libfdb_c) loads in this JVM, asked of fdb-java itself once: the
 * first failure names the missing library, later ones only "Could not initialize class".
 */
final class NativeClient {

    private static final class Probe {
        static final Optional<String> UNAVAILABLE = probe();
    }

    private NativeClient() {
    }

    /** Why FDB cannot be used here, or empty when it can. */
    static Optional<String> unavailableReason() {
        return Probe.UNAVAILABLE;
    }

    private static Optional<String> probe() {
        try {
            FDB.selectAPIVersion(FdbClient.API_VERSION);
            return Optional.empty();
        } catch (LinkageError | FDBException e) {
            return Optional.of(e.getMessage() != null ? e.getMessage() : e.toString());
        }
    }
}
