package io.jobfoundry.service;

import io.jobfoundry.kv.KvStore;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Down once the store takes no more work until a restart (the embedded store after a failed sync
 * of its log): readiness alone would keep such a replica unready for good, never restarted. A
 * store that is only slow or away for now leaves this up; readiness reports that. It asks the
 * store nothing, so it cannot time out.
 */
@Liveness
@ApplicationScoped
public class StoreLiveness implements HealthCheck {

    private final KvStore store;

    StoreLiveness(KvStore store) {
        this.store = store;
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("store-usable").withData("store", store.describe());
        return store.failedForGood().map(why -> response.withData("error", why).down().build())
                .orElseGet(() -> response.up().build());
    }
}
