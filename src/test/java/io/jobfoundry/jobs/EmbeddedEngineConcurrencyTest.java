package io.jobfoundry.jobs;

import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.embedded.Durability;
import io.jobfoundry.kv.embedded.EmbeddedOptions;
import io.jobfoundry.kv.embedded.EmbeddedStore;
import java.nio.file.Path;

/** The concurrency suite on the embedded store, always. */
class EmbeddedEngineConcurrencyTest extends EngineConcurrencyContract {

    @Override
    protected KvStore openStore(Path folder) {
        return EmbeddedStore.open(EmbeddedOptions.at(folder.resolve("chaos.db")).withDurability(Durability.OS));
    }
}
