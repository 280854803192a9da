/**
 * The FoundationDB gateway: {@link io.jobfoundry.kv.KvStore} over {@code org.foundationdb:fdb-java},
 * for clusters of stateless Jobfoundry replicas sharing one FDB cluster.
 *
 * <p>Open a store with {@link io.jobfoundry.kv.fdb.FdbStores#open}. It needs the FoundationDB 7.3
 * client library (libfdb_c, package {@code foundationdb-clients}) and a cluster file; opening fails
 * at once, naming what is missing, if either is absent or the cluster does not answer. Nothing in
 * this package loads native code before a store is opened, so the embedded default runs without it.
 *
 * <p>Depends only on {@code io.jobfoundry.kv} and fdb-java. FDB's semantics pass through unchanged;
 * the gateway adds the key prefix (every key lives under it), the SPI's size limits checked at the
 * call, and the mapping of FDB's errors to the kv exceptions ({@code FdbErrors}).
 */
package io.jobfoundry.kv.fdb;
