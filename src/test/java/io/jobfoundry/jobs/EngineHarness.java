package io.jobfoundry.jobs;

import io.jobfoundry.jobs.accept.Accepting;
import io.jobfoundry.jobs.background.ActivityMonitor;
import io.jobfoundry.jobs.background.DependencyResolver;
import io.jobfoundry.jobs.background.DueWaker;
import io.jobfoundry.jobs.background.JobCleaner;
import io.jobfoundry.jobs.context.EngineContext;
import io.jobfoundry.jobs.context.EngineOptions;
import io.jobfoundry.jobs.context.JobObserver;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.KvStore;
import io.jobfoundry.kv.RetryPolicy;
import io.jobfoundry.kv.TransactionRunner;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@link EngineFixture} for one test: the backend's store ({@link #openStore()}), and the
 * engine wired as the service wires it, with its waits as the place it hands jobs to.
 */
public abstract class EngineHarness implements EngineFixture {

    private KvStore store;
    private MutableClock clock;
    private JobEngine engine;
    private ActivityMonitor activity;
    private DueWaker waker;
    private JobCleaner cleaner;
    private DependencyResolver resolver;
    private JobWaits waits;
    private ScheduledExecutorService pool;

    protected abstract KvStore openStore() throws Exception;

    protected void discardStore(KvStore store) throws Exception {
        store.close();
    }

    @BeforeEach
    void start() throws Exception {
        store = openStore();
        clock = new MutableClock(START);
        EngineContext context = new EngineContext(new TransactionRunner(store, RetryPolicy.DEFAULT), clock, JobObserver.NONE);
        Accepting accepting = new Accepting(context, EngineOptions.DEFAULT);
        pool = Executors.newScheduledThreadPool(2);
        waits = new JobWaits(accepting, pool, pool);
        engine = new JobEngine(context, EngineOptions.DEFAULT, accepting, waits);
        activity = new ActivityMonitor(context);
        waker = new DueWaker(context);
        cleaner = new JobCleaner(context);
        resolver = new DependencyResolver(context);
    }

    @AfterEach
    void stop() throws Exception {
        waits.close();
        pool.shutdownNow();
        discardStore(store);
    }

    @Override
    public KvStore store() {
        return store;
    }

    @Override
    public MutableClock clock() {
        return clock;
    }

    @Override
    public JobEngine engine() {
        return engine;
    }

    @Override
    public ActivityMonitor activity() {
        return activity;
    }

    @Override
    public DueWaker waker() {
        return waker;
    }

    @Override
    public JobCleaner cleaner() {
        return cleaner;
    }

    @Override
    public DependencyResolver resolver() {
        return resolver;
    }

    @Override
    public JobWaits waits() {
        return waits;
    }
}
