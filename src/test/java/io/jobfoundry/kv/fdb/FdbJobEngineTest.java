package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.AcceptAndLeaseContract;
import io.jobfoundry.jobs.AddAndRemoveContract;
import io.jobfoundry.jobs.BatchContract;
import io.jobfoundry.jobs.DependencyContract;
import io.jobfoundry.jobs.FlowLimitContract;
import io.jobfoundry.jobs.EngineHarness;
import io.jobfoundry.jobs.ListAndBulkContract;
import io.jobfoundry.jobs.OperatingContract;
import io.jobfoundry.jobs.RetryAndRepeatContract;
import io.jobfoundry.jobs.TypeAndCountContract;
import io.jobfoundry.jobs.WaitAndHandOffContract;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import java.util.UUID;

/**
 * The engine suite on a real FoundationDB cluster, each test under a fresh random key prefix that
 * is cleared afterwards. Skipped, with the reason, where {@code FDB_CLUSTER_FILE} names no
 * reachable cluster.
 */
@EnabledIfFdbReachable
class FdbJobEngineTest extends EngineHarness implements AddAndRemoveContract, AcceptAndLeaseContract, RetryAndRepeatContract,
        WaitAndHandOffContract, TypeAndCountContract, BatchContract, OperatingContract,
        ListAndBulkContract, DependencyContract,
        FlowLimitContract {

    @Override
    protected KvStore openStore() {
        byte[] prefix = Tuple.from("jobfoundry-engine-test", UUID.randomUUID()).pack();
        return FdbStores.open(FdbOptions.ofClusterFile(System.getenv(FdbClusterCondition.CLUSTER_FILE_VARIABLE))
                .withKeyPrefix(prefix));
    }

    @Override
    protected void discardStore(KvStore store) {
        clearAndClose(store);
    }

    /** Clears everything under the store's key prefix, then closes it. */
    static void clearAndClose(KvStore store) {
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
