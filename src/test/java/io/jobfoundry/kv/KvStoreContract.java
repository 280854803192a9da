package io.jobfoundry.kv;

public abstract class KvStoreContract {

    protected abstract KvStore openStore() throws Exception;

    protected void discardStore(KvStore store) throws Exception {
        store.close();
    }
}
