package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;

/** Stores under a key prefix of the cluster that {@code FDB_CLUSTER_FILE} names, for the FDB suites. */
public final class FdbTestStores {

    private FdbTestStores() {
    }

    /** The store under the tuple prefix {@code (name)}, as the service opens {@code jobfoundry.fdb.key-prefix}. */
    public static KvStore open(String keyPrefix) {
        return open(Tuple.from(keyPrefix).pack());
    }

    static KvStore open(byte[] prefix) {
        return FdbStores.open(FdbOptions.ofClusterFile(System.getenv(FdbClusterCondition.CLUSTER_FILE_VARIABLE))
                .withKeyPrefix(prefix));
    }

    /** Clears everything under the store's key prefix, then closes it. */
    public static void clearAndClose(KvStore store) {
        try {
            new TransactionRunner(store, RetryPolicy.DEFAULT).run(tx -> {
                tx.clearRange(new byte[] {0x00}, new byte[] {(byte) 0xFF});
                return null;
            });
        } finally {
            store.close();
        }
    }
}
