package io.jobfoundry.kv.embedded;

import io.jobfoundry.kv.StoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps a second process (or a second store in this one) off the same file. The lock sits on a
 * sidecar file: POSIX locks on the database file itself would be released whenever SQLite closes
 * any descriptor of it, and would collide with SQLite's own lock bytes. The kernel drops the lock
 * when the process dies, so {@code kill -9} never leaves the store locked.
 */
final class StoreFileLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private StoreFileLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static StoreFileLock acquire(Path database) {
        Path lockFile = database.resolveSibling(database.getFileName() + ".lock");
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw inUse(database, null);
            }
            return new StoreFileLock(channel, lock);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw inUse(database, e);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new StoreException("cannot lock the embedded store's file " + lockFile, database.toString(), e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static StoreException inUse(Path database, Throwable cause) {
        return new StoreException("the embedded store " + database
                + " is in use by another process or store; one process owns it at a time"
                + " (run more replicas on FoundationDB: jobfoundry.store=fdb)", database.toString(), cause);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Already failing with the more useful error.
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // Closing the channel releases the lock; the process exit would too.
        }
    }
}
