package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.FDB;
import com.apple.foundationdb.FDBException;
import io.jobfoundry.kv.StoreClosedException;
import io.jobfoundry.kv.StoreException;

/**
 * The process's one FoundationDB client. FDB lets a process choose its API version once and start
 * its network thread once (a stopped network cannot be restarted), so the client is started by the
 * first FDB store opened, shared by every later one, and never stopped by a store: the process
 * stops it, through {@link #stop()}, once its store is closed at shutdown, or, where the JVM lives
 * on to start the application again (dev mode, tests), leaves it running: the network thread is a
 * daemon. fdb-java's own shutdown hook, which would stop it while Quarkus still lets in-flight
 * requests finish their transactions (the JVM runs shutdown hooks concurrently), is disabled.
 *
 * <p>This is the only class that touches {@link FDB}, whose static initializer loads libfdb_c, and
 * only when a store is opened: a process on the embedded store never loads native FDB code.
 */
final class FdbClient {

    /** FoundationDB 7.3's API; libfdb_c 7.3 or newer supports it. */
    static final int API_VERSION = 730;

    static final String NOT_INSTALLED = "the FoundationDB client library libfdb_c 7.3 is not installed: install the"
            + " FoundationDB 7.3 client package (foundationdb-clients, which provides libfdb_c.so; .deb and .rpm at"
            + " https://github.com/apple/foundationdb/releases), or run with jobfoundry.store=embedded";

    static final String OTHER_API_VERSION =
            "FoundationDB was already started in this process with another API version than " + API_VERSION;

    static final String STOPPED = "the FoundationDB client of this process was stopped (the service is shutting down)";

    private static FDB fdb;
    private static boolean stopped;

    private FdbClient() {
    }

    static synchronized FDB get(String store) {
        if (stopped) {
            throw new StoreClosedException(STOPPED, store);
        }
        if (fdb == null) {
            fdb = select(store);
            // Before any database is opened, which starts the network and would register the hook.
            fdb.disableShutdownHook();
        }
        return fdb;
    }

    /**
     * Stops the network thread and waits for it to end. Nothing in flight completes afterwards (a
     * thread waiting on a future may wait for good), so call it once every store is closed, at
     * shutdown; no store can be opened in this process afterwards. Does nothing (and loads no native code) if no store was ever opened.
     */
    static synchronized void stop() {
        stopped = true;
        if (fdb != null) {
            fdb.stopNetwork();
        }
    }

    private static FDB select(String store) {
        try {
            return FDB.selectAPIVersion(API_VERSION);
        } catch (LinkageError e) {
            // The first attempt fails with UnsatisfiedLinkError from FDB's static initializer (the
            // bundled libfdb_java cannot link libfdb_c), every later one with NoClassDefFoundError
            // (the JVM does not rerun a failed initializer). Both mean the same to an operator.
            throw new StoreException(NOT_INSTALLED, store, e);
        } catch (FDBException e) {
            if (e.getCode() == FdbErrors.API_VERSION_NOT_SUPPORTED) {
                throw new StoreException(NOT_INSTALLED + " (the installed one is older than 7.3)", store, e);
            }
            throw new StoreException("FoundationDB refused API version " + API_VERSION + ": " + e.getMessage(), store, e);
        } catch (IllegalArgumentException e) {
            throw new StoreException(OTHER_API_VERSION, store, e);
        }
    }
}
