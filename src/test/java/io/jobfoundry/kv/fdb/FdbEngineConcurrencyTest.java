package io.jobfoundry.kv.fdb;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.EngineConcurrencyContract;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.kv.KvStore;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The concurrency suite on a real FoundationDB cluster, where transactions run at once and only
 * read conflicts keep two accepts off one job; under a fresh random key prefix, cleared afterwards.
 * Skipped, with the reason, where {@code FDB_CLUSTER_FILE} is not set.
 */
@EnabledIfFdbReachable
class FdbEngineConcurrencyTest extends EngineConcurrencyContract {

    @Override
    protected KvStore openStore(Path folder) {
        return FdbTestStores.open(Tuple.from("jobfoundry-concurrency-test", UUID.randomUUID()).pack());
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
