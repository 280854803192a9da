package io.jobfoundry.service;

import io.jobfoundry.DaemonThreads;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.push.PushConfig;
import io.jobfoundry.push.PushDispatcher;
import io.jobfoundry.push.PushMetrics;
import io.jobfoundry.push.PushTargets;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.Executors;

/** Push delivery's parts, and its start; its shutdown is {@link GracefulShutdown}'s. */
@ApplicationScoped
public class PushProducer {

    @Produces
    @Singleton
    PushTargets pushTargets(PushConfig config) {
        return new PushTargets(config.allowedTargets().orElse(List.of()));
    }

    @Produces
    @Singleton
    PushDispatcher pushDispatcher(JobEngine engine, JobWaits waits, Vertx vertx, PushTargets targets,
            PushConfig config, MeterRegistry registry) {
        return new PushDispatcher(engine, waits, vertx, targets, config, new PushMetrics(registry),
                Executors.newSingleThreadExecutor(DaemonThreads.named("jobfoundry-push")));
    }

    /** Every replica pushes: the types that push are read from the store, wherever they were configured. */
    void start(@Observes StartupEvent event, PushDispatcher dispatcher) {
        dispatcher.start();
    }
}
