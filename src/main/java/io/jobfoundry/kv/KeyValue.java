package io.jobfoundry.kv;

/**
 * One entry of a range read. The arrays belong to the caller; records compare by identity of the
 * arrays, so compare contents with {@link java.util.Arrays#equals(byte[], byte[])}.
 */
public record KeyValue(byte[] key, byte[] value) {
}
