package io.jobfoundry.kv.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes everything written to the store's write-ahead log so far durable. SQLite itself commits
 * with {@code synchronous = NORMAL} (written, not synced); the {@link Acknowledger} calls this
 * before it acknowledges, so one sync can cover several batches while the committer goes on.
 */
interface LogSync extends AutoCloseable {

    void sync() throws IOException;

    @Override
    void close();

    /** Nothing to sync: durability {@code os}. */
    LogSync NONE = new LogSync() {
        @Override
        public void sync() {
        }

        @Override
        public void close() {
        }
    };

    /**
     * {@code fdatasync} of SQLite's {@code -wal} file beside {@code database}. Linux syncs a file's
     * pages whichever descriptor asks, so a descriptor of our own, opened read-only, syncs what
     * SQLite's wrote. {@code fdatasync} and not {@code fsync}: a log that grows changes its size,
     * which {@code fdatasync} syncs too, and nothing else of its metadata matters for reading it.
     */
    static LogSync walOf(Path database) {
        Path wal = database.resolveSibling(database.getFileName() + "-wal");
        return new LogSync() {
            private FileChannel channel;

            @Override
            public synchronized void sync() throws IOException {
                if (channel == null) {
                    // Opened at the first sync, when a commit has certainly created the file.
                    channel = FileChannel.open(wal, StandardOpenOption.READ);
                }
                channel.force(false);
            }

            @Override
            public synchronized void close() {
                if (channel != null) {
                    try {
                        channel.close();
                    } catch (IOException ignored) {
                        // Only a read-only descriptor: nothing of the log depends on closing it.
                    }
                    channel = null;
                }
            }
        };
    }
}
