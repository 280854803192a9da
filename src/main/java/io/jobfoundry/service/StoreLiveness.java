package io.jobfoundry.service;

import io.jobfoundry.kv.KvStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Locale;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Down once the store takes no more work until a restart (the embedded store after a failed sync
 * of its log, or once its file can no longer be written or read as opened): readiness alone would
 * keep such a replica unready for good, never restarted. A store that is only slow or away for now
 * leaves this up; readiness reports that. It runs no transaction, so a slow store cannot hold it
 * up; the embedded store looks at its files' identity (two {@code stat}s) to find one moved under
 * it. Like readiness it names the kind of store, not its file.
 */
@Liveness
@ApplicationScoped
public class StoreLiveness implements HealthCheck {

    private final KvStore store;
    private final String kind;

    StoreLiveness(KvStore store, JobfoundryConfig config) {
        this.store = store;
        this.kind = kind(config);
    }

    /** {@code embedded} or {@code fdb}, as {@code jobfoundry.store} names it. */
    static String kind(JobfoundryConfig config) {
        return config.store().name().toLowerCase(Locale.ROOT);
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("store-usable").withData("store", kind);
        return store.failedForGood().map(why -> response.withData("error", why).down().build())
                .orElseGet(() -> response.up().build());
    }
}
