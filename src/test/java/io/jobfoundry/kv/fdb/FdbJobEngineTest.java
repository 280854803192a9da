package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.AcceptAndLeaseContract;
import io.jobfoundry.jobs.AddAndRemoveContract;
import io.jobfoundry.jobs.BatchContract;
import io.jobfoundry.jobs.CallKeyContract;
import io.jobfoundry.jobs.DependencyContract;
import io.jobfoundry.jobs.FlowLimitContract;
import io.jobfoundry.jobs.EngineHarness;
import io.jobfoundry.jobs.ListAndBulkContract;
import io.jobfoundry.jobs.OperatingContract;
import io.jobfoundry.jobs.RecentListingContract;
import io.jobfoundry.jobs.TypeDeletionContract;
import io.jobfoundry.jobs.RetryAndRepeatContract;
import io.jobfoundry.jobs.TypeAndCountContract;
import io.jobfoundry.jobs.WaitAndHandOffContract;
import io.jobfoundry.kv.KvStore;
import java.util.UUID;

/**
 * The engine suite on a real FoundationDB cluster, each test under a fresh random key prefix that
 * is cleared afterwards. Skipped, with the reason, where {@code FDB_CLUSTER_FILE} names no
 * reachable cluster.
 */
@EnabledIfFdbReachable
class FdbJobEngineTest extends EngineHarness implements AddAndRemoveContract, AcceptAndLeaseContract, RetryAndRepeatContract,
        WaitAndHandOffContract, TypeAndCountContract, TypeDeletionContract, BatchContract, OperatingContract,
        ListAndBulkContract, RecentListingContract, DependencyContract,
        FlowLimitContract, CallKeyContract {

    @Override
    protected KvStore openStore() {
        return FdbTestStores.open(Tuple.from("jobfoundry-engine-test", UUID.randomUUID()).pack());
    }

    @Override
    protected void discardStore(KvStore store) {
        FdbTestStores.clearAndClose(store);
    }
}
