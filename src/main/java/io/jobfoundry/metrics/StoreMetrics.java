package io.jobfoundry.metrics;

import io.jobfoundry.kv.RetryableStoreException;
import io.jobfoundry.kv.TransactionRunner;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;

/**
 * The store's transactions as the runner counts them: committed transactions (divide by jobs for
 * transactions per job) and retried attempts by reason — conflicts above all, on FoundationDB.
 */
public final class StoreMetrics implements MeterBinder {

    private final TransactionRunner runner;

    public StoreMetrics(TransactionRunner runner) {
        this.runner = runner;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("jobfoundry.store.transactions", runner, TransactionRunner::committed)
                .description("Store transactions committed").register(registry);
        for (RetryableStoreException.Reason reason : RetryableStoreException.Reason.values()) {
            FunctionCounter.builder("jobfoundry.store.retries", runner, r -> r.retries(reason))
                    .description("Transaction attempts run again, by why the previous attempt failed")
                    .tag("reason", reason.name().toLowerCase(Locale.ROOT).replace('_', '-')).register(registry);
        }
    }
}
