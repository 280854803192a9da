package io.jobfoundry.kv.embedded;

import io.jobfoundry.kv.KeyValue;
import io.jobfoundry.kv.RetryableStoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The ordered key space in one SQLite table. SQLite compares BLOBs with memcmp and shorter-first,
 * which is FoundationDB's unsigned lexicographic key order, so range reads need no translation.
 * Used by the committer thread only; every statement is prepared once.
 *
 * <p>The JDBC connection stays in auto-commit mode and batches are delimited by explicit
 * {@code BEGIN}/{@code COMMIT}: after errors such as SQLITE_FULL SQLite rolls a transaction back
 * on its own, and the driver's implicit transaction tracking would then lose step with it.
 */
final class SqliteKeySpace implements AutoCloseable {

    /** Identifies a Jobfoundry store file (PRAGMA application_id), "JbFd". */
    static final int APPLICATION_ID = 0x4A624664;
    /** SQLite's result code for "database or disk is full". */
    private static final int SQLITE_FULL = 13;
    /** SQLite's result codes for a file it can no longer write as opened, or cannot read: see {@link #lost}. */
    private static final int SQLITE_READONLY = 8;
    private static final int SQLITE_CORRUPT = 11;
    private static final int SQLITE_NOTADB = 26;
    private static final int SCHEMA_VERSION = 1;

    private final Connection connection;
    private final Statement control;
    private PreparedStatement get;
    private PreparedStatement rangeAscending;
    private PreparedStatement rangeDescending;
    private PreparedStatement put;
    private PreparedStatement delete;
    private PreparedStatement deleteRange;
    private PreparedStatement readVersion;
    private PreparedStatement writeVersion;
    private PreparedStatement savepoint;
    private PreparedStatement rollbackToSavepoint;
    private PreparedStatement releaseSavepoint;
    private PreparedStatement begin;
    private PreparedStatement commit;

    SqliteKeySpace(Connection connection) throws SQLException {
        this.connection = connection;
        createSchema(connection);
        control = connection.createStatement();
        prepare();
    }

    private void prepare() throws SQLException {
        get = connection.prepareStatement("SELECT v FROM kv WHERE k = ?");
        rangeAscending = connection.prepareStatement("SELECT k, v FROM kv WHERE k >= ? AND k < ? ORDER BY k ASC LIMIT ?");
        rangeDescending = connection.prepareStatement("SELECT k, v FROM kv WHERE k >= ? AND k < ? ORDER BY k DESC LIMIT ?");
        put = connection.prepareStatement("INSERT INTO kv(k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v");
        delete = connection.prepareStatement("DELETE FROM kv WHERE k = ?");
        deleteRange = connection.prepareStatement("DELETE FROM kv WHERE k >= ? AND k < ?");
        readVersion = connection.prepareStatement("SELECT value FROM meta WHERE name = 'commit_version'");
        writeVersion = connection.prepareStatement("UPDATE meta SET value = ? WHERE name = 'commit_version'");
        savepoint = connection.prepareStatement("SAVEPOINT tx");
        rollbackToSavepoint = connection.prepareStatement("ROLLBACK TO tx");
        releaseSavepoint = connection.prepareStatement("RELEASE tx");
        // Prepared like the rest rather than compiled anew for every batch, which runs both.
        begin = connection.prepareStatement("BEGIN");
        commit = connection.prepareStatement("COMMIT");
    }

    private void closeStatements() {
        for (PreparedStatement statement : List.of(get, rangeAscending, rangeDescending, put, delete, deleteRange,
                readVersion, writeVersion, savepoint, rollbackToSavepoint, releaseSavepoint, begin, commit)) {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // Being replaced: the driver may already have finalized it after the failure.
            }
        }
    }

    private static void createSchema(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            int applicationId;
            try (ResultSet rs = s.executeQuery("PRAGMA application_id")) {
                applicationId = rs.next() ? rs.getInt(1) : 0;
            }
            if (applicationId != 0 && applicationId != APPLICATION_ID) {
                throw new SQLException("not a Jobfoundry store (SQLite application_id " + applicationId + ")");
            }
            s.execute("CREATE TABLE IF NOT EXISTS kv (k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID");
            s.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID");
            s.execute("INSERT OR IGNORE INTO meta(name, value) VALUES ('commit_version', 0), ('schema_version', "
                    + SCHEMA_VERSION + ")");
            s.execute("PRAGMA application_id = " + APPLICATION_ID);
            try (ResultSet rs = s.executeQuery("SELECT value FROM meta WHERE name = 'schema_version'")) {
                int found = rs.next() ? rs.getInt(1) : -1;
                if (found != SCHEMA_VERSION) {
                    throw new SQLException("unsupported store schema version " + found + ", expected " + SCHEMA_VERSION);
                }
            }
        }
    }

    byte[] get(byte[] key) throws SQLException {
        get.setBytes(1, key);
        try (ResultSet rs = get.executeQuery()) {
            return rs.next() ? rs.getBytes(1) : null;
        }
    }

    List<KeyValue> range(byte[] begin, byte[] end, int limit, boolean reverse) throws SQLException {
        PreparedStatement statement = reverse ? rangeDescending : rangeAscending;
        statement.setBytes(1, begin);
        statement.setBytes(2, end);
        statement.setInt(3, limit > 0 ? limit : -1);
        List<KeyValue> result = new ArrayList<>(limit > 0 ? Math.min(limit, 256) : 16);
        try (ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                result.add(new KeyValue(rs.getBytes(1), rs.getBytes(2)));
            }
        }
        return result;
    }

    void put(byte[] key, byte[] value) throws SQLException {
        put.setBytes(1, key);
        put.setBytes(2, value);
        put.executeUpdate();
    }

    void delete(byte[] key) throws SQLException {
        delete.setBytes(1, key);
        delete.executeUpdate();
    }

    void deleteRange(byte[] begin, byte[] end) throws SQLException {
        deleteRange.setBytes(1, begin);
        deleteRange.setBytes(2, end);
        deleteRange.executeUpdate();
    }

    long commitVersion() throws SQLException {
        try (ResultSet rs = readVersion.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("store metadata has no commit_version");
            }
            return rs.getLong(1);
        }
    }

    void setCommitVersion(long version) throws SQLException {
        writeVersion.setLong(1, version);
        writeVersion.executeUpdate();
    }

    void savepoint() throws SQLException {
        savepoint.execute();
    }

    void rollbackToSavepoint() throws SQLException {
        rollbackToSavepoint.execute();
        releaseSavepoint.execute();
    }

    void releaseSavepoint() throws SQLException {
        releaseSavepoint.execute();
    }

    void begin() throws SQLException {
        begin.execute();
    }

    void commit() throws SQLException {
        commit.execute();
    }

    /**
     * Ends the open transaction (unless SQLite has already rolled it back by itself) and prepares
     * every statement again: after an error the driver may have finalized the one that failed.
     */
    void rollbackAndRecover() throws SQLException {
        try {
            control.execute("ROLLBACK");
        } catch (SQLException e) {
            if (!String.valueOf(e.getMessage()).contains("no transaction is active")) {
                throw e;
            }
        }
        closeStatements();
        prepare();
    }

    /**
     * How a failed attempt is retried: {@code FULL} when SQLite ran out of room (SQLITE_FULL: the
     * disk, or the page limit {@code jobfoundry.embedded.max-size} sets), {@code TRANSIENT} otherwise.
     */
    static RetryableStoreException.Reason reasonOf(SQLException e) {
        return (e.getErrorCode() & 0xff) == SQLITE_FULL ? RetryableStoreException.Reason.FULL
                : RetryableStoreException.Reason.TRANSIENT;
    }

    /**
     * Whether a failure leaves the store unable to serve until it is opened again: the file can no
     * longer be written through this connection (SQLITE_READONLY: moved or deleted under it, its
     * lock or journal lost) or is damaged (SQLITE_CORRUPT, SQLITE_NOTADB). None of these passes by
     * trying again; retried, every request would wait out its attempts for a 503 while the probes
     * said all was well. Not SQLITE_IOERR: it is also how a quota (EDQUOT, the size of many a
     * volume) or a network file system's passing lock failure reach SQLite, which a restart would
     * not mend and a retry may; those stay 503s, their cause logged with each.
     */
    static boolean lost(SQLException e) {
        int primary = e.getErrorCode() & 0xff;
        return primary == SQLITE_READONLY || primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB;
    }

    @Override
    public void close() throws SQLException {
        closeStatements();
        try (Statement s = control) {
            // Fold the WAL back into the main file so a clean shutdown leaves one file behind.
            s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        } finally {
            connection.close();
        }
    }
}
