package io.jobfoundry.service;

import io.jobfoundry.DaemonThreads;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.accept.Accepting;
import io.jobfoundry.jobs.background.ActivityMonitor;
import io.jobfoundry.jobs.background.DependencyResolver;
import io.jobfoundry.jobs.background.DependencyTimer;
import io.jobfoundry.jobs.background.DueTimer;
import io.jobfoundry.jobs.background.DueWaker;
import io.jobfoundry.jobs.background.JobCleaner;
import io.jobfoundry.jobs.background.OutcomeRetention;
import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.TransactionRunner;
import io.jobfoundry.metrics.JobGauges;
import io.jobfoundry.metrics.MicrometerJobObserver;
import io.jobfoundry.metrics.StoreMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.jboss.logging.Logger;

/** The engine and what runs around it, assembled once per process. */
@ApplicationScoped
public class EngineProducer {

    private static final Logger LOG = Logger.getLogger(EngineProducer.class);

    /** Transactions of blocked accepts and subscriptions; short, so a few threads serve thousands of waiters. */
    private static final int WAIT_THREADS = 4;
    /** Job gauges are re-read at most this often, however often Prometheus scrapes. */
    private static final Duration GAUGE_MAX_AGE = Duration.ofSeconds(5);

    @Produces
    @DefaultBean
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    EngineContext engineContext(TransactionRunner runner, Clock clock, MeterRegistry registry) {
        return new EngineContext(runner, clock, new MicrometerJobObserver(registry));
    }

    @Produces
    @Singleton
    Accepting accepting(EngineContext context, JobfoundryConfig config) {
        return new Accepting(context, options(config));
    }

    /** The engine hands a job being added to a processor blocked in accept here ({@link JobWaits}). */
    @Produces
    @Singleton
    JobEngine engine(EngineContext context, Accepting accepting, JobWaits waits, JobfoundryConfig config) {
        return new JobEngine(context, options(config), accepting, waits);
    }

    private static EngineOptions options(JobfoundryConfig config) {
        return config.store() == JobfoundryConfig.StoreKind.FDB
                ? EngineOptions.DEFAULT.forConcurrentStore() : EngineOptions.DEFAULT;
    }

    @Produces
    @Singleton
    StoreMetrics storeMetrics(TransactionRunner runner) {
        return new StoreMetrics(runner);
    }

    @Produces
    @Singleton
    JobGauges jobGauges(JobEngine engine) {
        return new JobGauges(engine, GAUGE_MAX_AGE);
    }

    @Produces
    @Singleton
    JobWaits waits(Accepting accepting, MeterRegistry registry) {
        ExecutorService executor = Executors.newFixedThreadPool(WAIT_THREADS, DaemonThreads.named("jobfoundry-waits"));
        // 50,000 accepts with a 30 s wait, answered at once, left 50,000 dead tasks in a plain timer.
        JobWaits waits = new JobWaits(accepting, executor, DaemonThreads.timeouts("jobfoundry-wait-timer"));
        Gauge.builder("jobfoundry.waits.accepts", waits, JobWaits::waitingAccepts)
                .description("Accepts blocked until a job is due, on this replica").register(registry);
        Gauge.builder("jobfoundry.waits.event.streams", waits, JobWaits::subscriptions)
                .description("Job event streams open on this replica, each holding a store watch").register(registry);
        return waits;
    }

    void close(@Disposes JobWaits waits) {
        waits.close();
    }

    @Produces
    @Singleton
    ActivityMonitor activityMonitor(EngineContext context) {
        return new ActivityMonitor(context);
    }

    @Produces
    @Singleton
    DueWaker dueWaker(EngineContext context) {
        return new DueWaker(context);
    }

    @Produces
    @Singleton
    DueTimer dueTimer(DueWaker waker, EngineContext context, JobfoundryConfig config) {
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("jobfoundry-due-timer"));
        return new DueTimer(waker, context, thread, config.monitor().dueInterval(), result -> result.promoted()
                .forEach((type, count) -> LOG.debugf("due timer: %d job(s) of type %s due", count, type)));
    }

    void close(@Disposes DueTimer timer) {
        timer.close();
    }

    @Produces
    @Singleton
    DependencyResolver dependencyResolver(EngineContext context) {
        return new DependencyResolver(context);
    }

    /** Its safety-net sweep is the due timer's: both are woken by watches, and sleep only as long. */
    @Produces
    @Singleton
    DependencyTimer dependencyTimer(DependencyResolver resolver, EngineContext context, JobfoundryConfig config) {
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(
                DaemonThreads.named("jobfoundry-dependencies"));
        return new DependencyTimer(resolver, context, thread, config.monitor().dueInterval(), result -> {
            if (result.moved() > 0) {
                LOG.debugf("dependencies: %d waiting job(s) placed or cancelled", result.moved());
            }
        });
    }

    void close(@Disposes DependencyTimer timer) {
        timer.close();
    }

    @Produces
    @Singleton
    OutcomeRetention outcomeRetention(EngineContext context) {
        return new OutcomeRetention(context);
    }

    @Produces
    @Singleton
    JobCleaner jobCleaner(EngineContext context) {
        return new JobCleaner(context);
    }
}
