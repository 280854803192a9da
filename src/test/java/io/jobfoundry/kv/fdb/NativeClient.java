package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.FDB;
import com.apple.foundationdb.FDBException;
import java.util.Optional;

/** Whether fdb-java's native side (libfdb_c) loads in this JVM, asked of fdb-java itself. */
final class NativeClient {

    private NativeClient() {
    }

    /** Why FDB cannot be used here, or empty when it can. */
    static Optional<String> unavailableReason() {
        try {
            FDB.selectAPIVersion(FdbClient.API_VERSION);
            return Optional.empty();
        } catch (LinkageError | FDBException e) {
            return Optional.of(rootMessage(e));
        }
    }

    /**
     * The innermost message: after the first failure the JVM reports only "Could not initialize
     * class", and the reason (the library that could not be found) is in the cause chain.
     */
    static String rootMessage(Throwable failure) {
        Throwable t = failure;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }
}
