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
import org.jboss.logging.Logger;

/** Push delivery's parts, and its start; its shutdown is {@link GracefulShutdown}'s. */
@ApplicationScoped
public class PushProducer {

    private static final Logger LOG = Logger.getLogger(PushProducer.class);

    /** 16 MiB: far beyond any job's data (64 KiB), still bounded. */
    static final int MAX_ANSWER_BYTES = 16 << 20;

    @Produces
    @Singleton
    PushTargets pushTargets(PushConfig config) {
        return new PushTargets(config.allowedTargets().orElse(List.of()));
    }

    @Produces
    @Singleton
    PushDispatcher pushDispatcher(JobEngine engine, JobWaits waits, Vertx vertx, PushTargets targets,
            PushConfig config, MeterRegistry registry) {
        int answer = config.maxAnswerBytes();
        if (answer < 1 || answer > MAX_ANSWER_BYTES) {
            // Held in memory per call in flight: a limit beyond this is memory a target could take.
            throw new IllegalArgumentException("invalid configuration: jobfoundry.push.max-answer-bytes must be "
                    + "within 1.." + MAX_ANSWER_BYTES + ", not " + answer);
        }
        return new PushDispatcher(engine, waits, vertx, targets, config, new PushMetrics(registry),
                Executors.newSingleThreadExecutor(DaemonThreads.named("jobfoundry-push")));
    }

    /**
     * Every replica pushes: the types that push are read from the store, wherever they were
     * configured. Whether calls are signed is said once: an empty secret (an unset variable in a
     * manifest) reads as none, and the calls would go out unsigned with nothing else to tell.
     */
    void start(@Observes StartupEvent event, PushDispatcher dispatcher, PushTargets targets, PushConfig config) {
        if (targets.configured()) {
            LOG.infof("push delivery: to targets under %d allowed prefix(es); calls %s", targets.size(),
                    config.signingSecret().filter(secret -> !secret.isEmpty()).isPresent()
                            ? "signed (Jobfoundry-Signature, jobfoundry.push.signing-secret)"
                            : "NOT signed: no jobfoundry.push.signing-secret is set");
        }
        dispatcher.start();
    }
}
