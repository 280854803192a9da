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
     * {@code fdatasync} of SQLite's {@code -wal} file beside {@code database}. A file's pages are
     * synced whichever descriptor asks, so a descriptor of our own syncs what SQLite's wrote. It is
     * opened for writing though nothing is written through it: Windows flushes a file only
     * through a handle that may write, and ignores the request silently otherwise.
     * {@code fdatasync} and not {@code fsync}: a log that grows changes its size, which
     * {@code fdatasync} syncs too, and nothing else of its metadata matters for reading it.
     */
    static LogSync walOf(Path database) {
        return new LogSync() {
            private FileChannel channel;
            private boolean closed;

            @Override
            public synchronized void sync() throws IOException {
                if (closed) {
                    throw new IOException("the log of " + database + " is closed");
                }
                if (channel == null) {
                    // Opened at the first sync, when a commit has certainly created the file;
                    // beside the real file, as SQLite resolves a database path that is a link.
                    Path real = database.toRealPath();
                    channel = FileChannel.open(real.resolveSibling(real.getFileName() + "-wal"),
                            StandardOpenOption.WRITE);
                }
                channel.force(false);
            }

            @Override
            public synchronized void close() {
                closed = true;
                if (channel != null) {
                    try {
                        channel.close();
                    } catch (IOException ignored) {
                        // Nothing was written through it: nothing of the log depends on closing it.
                    }
                    channel = null;
                }
            }
        };
    }
}
