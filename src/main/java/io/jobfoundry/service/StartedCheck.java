package io.jobfoundry.service;

import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Startup;

/**
 * {@code /q/health/started}: up once the application has finished starting — the store opened
 * (a startup bean, which may wait for a FoundationDB cluster) and every other startup observer
 * done. A Kubernetes startup probe on it holds the liveness probe off a replica that is still
 * connecting, instead of restarting it for being slow.
 */
@Startup
@ApplicationScoped
public class StartedCheck implements HealthCheck {

    private volatile boolean started;

    /** Observed last: after the startup beans, the store among them, were created. */
    void started(@Observes @Priority(Integer.MAX_VALUE) StartupEvent event) {
        started = true;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("started").status(started).build();
    }
}
