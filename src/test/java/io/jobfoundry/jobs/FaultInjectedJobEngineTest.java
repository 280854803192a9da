package io.jobfoundry.jobs;

import io.jobfoundry.kv.FaultInjectingStore;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole engine suite again, with a fifth of all commits failing retryably, before their effect
 * or after it (commit_unknown_result): every operation must be safe to run twice.
 */
class FaultInjectedJobEngineTest extends EngineHarness implements AddAndRemoveContract, AcceptAndLeaseContract, RetryAndRepeatContract,
        WaitAndHandOffContract, TypeAndCountContract, TypeDeletionContract, BatchContract, OperatingContract,
        ListAndBulkContract, RecentListingContract, DependencyContract,
        FlowLimitContract, CallKeyContract {

    @TempDir
    Path folder;

    @Override
    protected KvStore openStore() {
        long seed = Long.getLong("faults.seed", System.nanoTime());
        System.out.println("FaultInjectedJobEngineTest seed: " + seed + " (replay with -Dfaults.seed=" + seed + ")");
        return new FaultInjectingStore(EmbeddedStore.open(
                EmbeddedOptions.at(folder.resolve("jobs.db")).withDurability(Durability.OS)),
                0.2, FaultInjectingStore.Mode.BOTH, seed);
    }
}
