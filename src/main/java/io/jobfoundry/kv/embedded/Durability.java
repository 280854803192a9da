package io.jobfoundry.kv.embedded;

/** What an acknowledged commit of the embedded store survives. */
public enum Durability {
    /** Power loss: every batch is synced to disk before it is acknowledged (the log's {@code fdatasync}). */
    FSYNC,
    /** A crash of the process, not of the machine (SQLite synchronous=NORMAL in WAL mode). */
    OS
}
