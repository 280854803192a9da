package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.LimitConcurrencyContract;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.kv.KvStore;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The limits' concurrency suite on a real FoundationDB cluster, where accepts run at once and only
 * the read conflicts on the slots they take keep a limit exact; under a fresh random key prefix,
 * cleared afterwards. Skipped, with the reason, where {@code FDB_CLUSTER_FILE} is not set.
 */
@EnabledIfFdbReachable
class FdbLimitConcurrencyTest extends LimitConcurrencyContract {

    @Override
    protected KvStore openStore(Path folder) {
        return FdbTestStores.open(Tuple.from("jobfoundry-limits-test", UUID.randomUUID()).pack());
    }

    @Override
    protected void discardStore(KvStore store) {
        FdbTestStores.clearAndClose(store);
    }

    @Override
    protected EngineOptions options() {
        return EngineOptions.DEFAULT.forConcurrentStore();
    }
}
