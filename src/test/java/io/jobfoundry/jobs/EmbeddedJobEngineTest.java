package io.jobfoundry.jobs;

import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedJobEngineTest extends EngineHarness implements AddAndRemoveContract, AcceptAndLeaseContract, RetryAndRepeatContract,
        WaitAndHandOffContract, TypeAndCountContract, TypeDeletionContract, BatchContract, OperatingContract,
        ListAndBulkContract, RecentListingContract, DependencyContract,
        FlowLimitContract, CallKeyContract {

    @TempDir
    Path folder;

    @Override
    protected KvStore openStore() {
        return EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS));
    }
}
