package io.jobfoundry;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Every record a class's logger publishes, at every level (DEBUG too, to show that something is
 * not logged higher), from {@link #of} until {@link #close}, which restores the logger's level.
 */
public final class CapturedLog extends Handler implements AutoCloseable {

    private final Logger logger;
    private final Level previousLevel;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    private CapturedLog(Logger logger) {
        this.logger = logger;
        this.previousLevel = logger.getLevel();
        logger.setLevel(Level.ALL);
        logger.addHandler(this);
    }

    public static CapturedLog of(Class<?> source) {
        return new CapturedLog(Logger.getLogger(source.getName()));
    }

    /** The records at {@code level} or above, in order. */
    public List<LogRecord> atLeast(Level level) {
        return records.stream().filter(r -> r.getLevel().intValue() >= level.intValue()).toList();
    }

    /** Their messages with their parameters filled in (JBoss Logging hands over printf-style ones). */
    public List<String> messagesAtLeast(Level level) {
        return atLeast(level).stream().map(CapturedLog::formatted).toList();
    }

    public List<LogRecord> all() {
        return List.copyOf(records);
    }

    public void clear() {
        records.clear();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
        logger.setLevel(previousLevel);
    }

    private static String formatted(LogRecord record) {
        Object[] parameters = record.getParameters();
        String message = record.getMessage();
        return parameters == null || parameters.length == 0 ? message : String.format(message, parameters);
    }
}
