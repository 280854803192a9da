package io.jobfoundry.kv.embedded;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How to open the embedded store.
 *
 * @param path       the SQLite file; its parent folders are created
 * @param durability what an acknowledged commit survives
 * @param maxBatch   the most transactions committed together in one batch (group commit)
 * @param maxBytes   the most the file may grow to, 0 for no limit; a batch that would pass it fails
 *                   retryably (as when the disk is full), so a runaway producer cannot fill the disk
 */
public record EmbeddedOptions(Path path, Durability durability, int maxBatch, long maxBytes) {

    /** Versionstamps give a transaction's place in its batch two bytes. */
    public static final int MAX_BATCH_LIMIT = 0xFFFF;

    public EmbeddedOptions {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(durability, "durability");
        if (maxBatch < 1 || maxBatch > MAX_BATCH_LIMIT) {
            throw new IllegalArgumentException("maxBatch must be within 1.." + MAX_BATCH_LIMIT + ": " + maxBatch);
        }
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
    }

    public static EmbeddedOptions at(Path path) {
        return new EmbeddedOptions(path, Durability.FSYNC, 1024, 0);
    }

    public EmbeddedOptions withDurability(Durability value) {
        return new EmbeddedOptions(path, value, maxBatch, maxBytes);
    }

    public EmbeddedOptions withMaxBytes(long value) {
        return new EmbeddedOptions(path, durability, maxBatch, value);
    }
}
