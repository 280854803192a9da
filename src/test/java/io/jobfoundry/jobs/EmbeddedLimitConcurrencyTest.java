package io.jobfoundry.jobs;

import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;

/** The limits' concurrency suite on the embedded store, always. */
class EmbeddedLimitConcurrencyTest extends LimitConcurrencyContract {

    @Override
    protected KvStore openStore(Path folder) {
        return EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("limits.db")).withDurability(Durability.OS));
    }
}
