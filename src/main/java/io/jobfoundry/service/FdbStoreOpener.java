package io.jobfoundry.service;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.fdb.FdbOptions;
import io.jobfoundry.kv.fdb.FdbStores;

/**
 * The only class of the service that names {@code kv.fdb}. It is loaded when
 * {@code jobfoundry.store=fdb} and never otherwise, so the embedded default never loads the
 * native FoundationDB client.
 */
final class FdbStoreOpener {

    private FdbStoreOpener() {
    }

    static KvStore open(JobfoundryConfig.Fdb fdb) {
        return FdbStores.open(new FdbOptions(fdb.clusterFile(), Tuple.from(fdb.keyPrefix()).pack()));
    }

    /** After the store is closed: stops FoundationDB's network thread (see {@link FdbStores#stopClient()}). */
    static void stopClient() {
        FdbStores.stopClient();
    }
}
