package io.jobfoundry.kv.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Whether the store's file and its log are still the ones its connection opened. SQLite, in WAL
 * mode and holding its lock exclusively, never looks again: a file deleted or moved (its folder
 * with it) under the open connection goes on taking commits into an inode no path reaches, the
 * probes stay up, and the next start finds an empty store, or none, every job acknowledged
 * meanwhile gone without a word. So the committer looks before a batch that writes, at most every
 * {@link #CHECK_EVERY} (a look is two {@code stat}s, some 5 µs), and the liveness probe looks too,
 * for a service with no traffic. A file found elsewhere stops the store as SQLite's own
 * SQLITE_READONLY_DBMOVED would ({@link SqliteKeySpace#lost}), so that the liveness probe asks for
 * the restart that opens the file where the configuration says it is. What is left open is the
 * work committed between the removal and the next look: at most that interval's.
 */
final class StoreFiles {

    /** SQLite's extended code for "the database file has been moved since it was opened". */
    static final int SQLITE_READONLY_DBMOVED = 8 | 4 << 8;
    static final Duration CHECK_EVERY = Duration.ofMillis(100);
    /** Nothing is at the path. */
    private static final Object GONE = new Object();
    /** The path could not be read (a passing error of the file system): no answer, and no reason to stop. */
    private static final Object UNKNOWN = new Object();

    private final Path file;
    private final Path log;
    private final Object fileKey;
    private final long checkEveryNanos;
    /** The log's identity, or {@link #GONE} until it was first seen: SQLite makes it at the first transaction. */
    private volatile Object logKey;
    /** When the committer last asked; read and written by its thread only. */
    private long checkedAt;

    private StoreFiles(Path file, Path real, Object fileKey, Duration checkEvery) {
        this.file = file;
        // Beside the real file, as SQLite resolves a database path that is a link (and LogSync).
        this.log = real.resolveSibling(real.getFileName() + "-wal");
        this.fileKey = fileKey;
        this.checkEveryNanos = checkEvery.toNanos();
        this.checkedAt = System.nanoTime() - checkEveryNanos;
    }

    /**
     * The files at {@code file} as they are now, just after the connection opened them, for a
     * committer that asks at most every {@code checkEvery}.
     */
    static StoreFiles of(Path file, Duration checkEvery) throws SQLException {
        Object key = identity(file);
        if (key == GONE || key == UNKNOWN) {
            throw new SQLException("the embedded store's file " + file + " cannot be read after it was opened");
        }
        Path real;
        try {
            real = file.toRealPath();
        } catch (IOException e) {
            throw new SQLException("the embedded store's file " + file + " cannot be read after it was opened", e);
        }
        StoreFiles files = new StoreFiles(file, real, key, checkEvery);
        Object log = identity(files.log);
        files.logKey = log == UNKNOWN ? GONE : log;
        return files;
    }

    /** The committer's check, at most every so often: null while the files are in place. */
    SQLException checkDue() {
        long now = System.nanoTime();
        if (now - checkedAt < checkEveryNanos) {
            return null;
        }
        checkedAt = now;
        return check();
    }

    /** Null while the file and its log are those opened, else why not, as SQLite would say it. */
    SQLException check() {
        String moved = moved();
        return moved == null ? null : new SQLException(moved, null, SQLITE_READONLY_DBMOVED);
    }

    private String moved() {
        Object now = identity(file);
        if (now == UNKNOWN) {
            return null;
        }
        if (!now.equals(fileKey)) {
            return "its file " + file + (now == GONE ? " is gone" : " is another file") + " since it was opened:"
                    + " moved or deleted under the running service";
        }
        Object logNow = identity(log);
        Object opened = logKey;
        if (logNow == UNKNOWN) {
            return null;
        } else if (opened == GONE) {
            logKey = logNow;
        } else if (!opened.equals(logNow)) {
            return "its log " + log + (logNow == GONE ? " is gone" : " is another file") + " since it was opened:"
                    + " moved or deleted under the running service";
        }
        return null;
    }

    /**
     * The identity of the file at {@code path}, links followed as SQLite follows them: its device
     * and inode where the platform has them, its presence where it has not; or {@link #GONE}, or
     * {@link #UNKNOWN}.
     */
    private static Object identity(Path path) {
        try {
            Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
            return key != null ? key : Boolean.TRUE;
        } catch (NoSuchFileException e) {
            return GONE;
        } catch (IOException e) {
            return UNKNOWN;
        }
    }
}
