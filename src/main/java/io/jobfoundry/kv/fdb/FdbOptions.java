package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.tuple.ByteArrayUtil;
import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.KvTransaction;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a FoundationDB store lives: the cluster file ({@code jobfoundry.fdb.cluster-file}; empty
 * means FDB's own default: {@code FDB_CLUSTER_FILE}, then {@code /etc/foundationdb/fdb.cluster}) and
 * the key prefix every key of the store is written under, so that Jobfoundry can share a cluster
 * with other applications, and tests with each other.
 *
 * <p>Only the tuple layer is used here, which is plain Java: building options loads no native code.
 */
public record FdbOptions(Optional<String> clusterFile, byte[] keyPrefix) {

    private static final byte SYSTEM_KEY_BYTE = (byte) 0xFF;

    public FdbOptions {
        clusterFile = Objects.requireNonNullElse(clusterFile, Optional.<String>empty()).filter(file -> !file.isBlank());
        Objects.requireNonNull(keyPrefix, "keyPrefix");
        if (keyPrefix.length == 0) {
            throw new IllegalArgumentException("the key prefix must not be empty: the store owns only its own subspace");
        }
        if (keyPrefix[0] == SYSTEM_KEY_BYTE) {
            throw new IllegalArgumentException("the key prefix must not start with 0xFF, FoundationDB's system keys");
        }
        if (keyPrefix.length > KvTransaction.MAX_KEY_PREFIX_BYTES) {
            // Keys are limited so that any of them fits FDB's 10,000 bytes behind a prefix this long.
            throw new IllegalArgumentException("the key prefix must be at most " + KvTransaction.MAX_KEY_PREFIX_BYTES
                    + " bytes, not " + keyPrefix.length);
        }
        keyPrefix = keyPrefix.clone();
    }

    /** A cluster file as configuration gives it: {@code null} or blank means FDB's default. */
    public static FdbOptions ofClusterFile(String clusterFile) {
        return new FdbOptions(Optional.ofNullable(clusterFile), defaultKeyPrefix());
    }

    /** {@code Tuple.from("jobfoundry").pack()}. */
    public static byte[] defaultKeyPrefix() {
        return Tuple.from("jobfoundry").pack();
    }

    public FdbOptions withKeyPrefix(byte[] prefix) {
        return new FdbOptions(clusterFile, prefix);
    }

    @Override
    public byte[] keyPrefix() {
        return keyPrefix.clone();
    }

    /** How the store names itself in logs, health checks and {@link io.jobfoundry.kv.StoreException#store()}. */
    String describe() {
        return "FoundationDB (cluster file " + clusterFile.orElse("FDB's default") + ", key prefix "
                + ByteArrayUtil.printable(keyPrefix) + ")";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FdbOptions that
                && clusterFile.equals(that.clusterFile)
                && Arrays.equals(keyPrefix, that.keyPrefix);
    }

    @Override
    public int hashCode() {
        return 31 * clusterFile.hashCode() + Arrays.hashCode(keyPrefix);
    }

    @Override
    public String toString() {
        return "FdbOptions[clusterFile=" + clusterFile + ", keyPrefix=" + ByteArrayUtil.printable(keyPrefix) + "]";
    }
}
