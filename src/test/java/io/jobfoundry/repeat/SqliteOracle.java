package io.jobfoundry.repeat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real SQLite (bundled with sqlite-jdbc) evaluating date modifiers: what Bedrock would compute.
 * Times travel as SQLite's own text, {@code YYYY-MM-DD HH:MM:SS.SSS}, which is exact at the
 * millisecond.
 */
final class SqliteOracle implements AutoCloseable {

    private static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");

    private final Connection connection;
    private final Map<Integer, PreparedStatement> statements = new HashMap<>();

    SqliteOracle() throws SQLException {
        connection = DriverManager.getConnection("jdbc:sqlite::memory:");
    }

    /** SQLite's result, or null where SQLite answers NULL (an invalid modifier or an out-of-range date). */
    String evaluate(String base, List<String> modifiers) throws SQLException {
        PreparedStatement statement = statements.computeIfAbsent(modifiers.size(), this::prepare);
        statement.setString(1, base);
        for (int i = 0; i < modifiers.size(); i++) {
            statement.setString(i + 2, modifiers.get(i));
        }
        try (ResultSet result = statement.executeQuery()) {
            result.next();
            return result.getString(1);
        }
    }

    String evaluate(Instant base, List<String> modifiers) throws SQLException {
        return evaluate(text(base), modifiers);
    }

    String version() throws SQLException {
        try (ResultSet result = connection.createStatement().executeQuery("SELECT sqlite_version()")) {
            result.next();
            return result.getString(1);
        }
    }

    private PreparedStatement prepare(int modifierCount) {
        StringBuilder sql = new StringBuilder("SELECT strftime('%Y-%m-%d %H:%M:%f', ?");
        sql.append(", ?".repeat(modifierCount)).append(')');
        try {
            return connection.prepareStatement(sql.toString());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether SQLite's result is a time our range holds: not NULL and not a negative year. */
    static boolean inRange(String sqliteResult) {
        return sqliteResult != null && !sqliteResult.startsWith("-");
    }

    static String text(Instant instant) {
        return TEXT.format(instant.atOffset(ZoneOffset.UTC));
    }

    static Instant instant(String text) {
        return LocalDateTime.parse(text, TEXT).toInstant(ZoneOffset.UTC);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
