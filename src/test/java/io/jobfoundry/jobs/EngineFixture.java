package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobfoundry.jobs.background.ActivityMonitor;
import io.jobfoundry.jobs.background.DependencyResolver;
import io.jobfoundry.jobs.background.DueWaker;
import io.jobfoundry.jobs.background.JobCleaner;
import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.waits.JobWaits;
import io.jobfoundry.kv.KvStore;
import java.time.Instant;
import java.util.List;

/**
 * What the engine contract's areas run against (River's driver test suite, split by area): an
 * engine on a fresh store, a mutable clock starting at {@link #START}, the monitors driven by
 * {@code runOnce()}, and the waits the engine hands jobs to. {@link EngineHarness} provides it;
 * each backend's test extends that and implements every area:
 * {@link AddAndRemoveContract}, {@link AcceptAndLeaseContract}, {@link RetryAndRepeatContract},
 * {@link WaitAndHandOffContract}, {@link TypeAndCountContract}, {@link BatchContract},
 * {@link OperatingContract}, {@link ListAndBulkContract}, {@link RecentListingContract}, {@link DependencyContract},
 * {@link FlowLimitContract} and {@link CallKeyContract}.
 */
public interface EngineFixture {

    Instant START = Instant.parse("2026-11-21T10:00:00Z");
    /** How long a test waits for something that happens on another thread. */
    long EVENT_SECONDS = 10;

    KvStore store();

    MutableClock clock();

    JobEngine engine();

    ActivityMonitor activity();

    DueWaker waker();

    JobCleaner cleaner();

    DependencyResolver resolver();

    JobWaits waits();

    default Added add(String type, String id) {
        return engine().put(type, id, JobChanges.NONE);
    }

    default LeasedJob acceptOne(String type) {
        List<LeasedJob> jobs = engine().accept(new AcceptRequest(List.of(type), 1, null, "worker-1"));
        assertEquals(1, jobs.size(), "expected one job of " + type);
        return jobs.get(0);
    }

    default List<LeasedJob> accept(String type, int max) {
        return engine().accept(new AcceptRequest(List.of(type), max, null, "worker-1"));
    }

    default Job finish(LeasedJob leased, boolean succeeded) {
        return engine().finish(leased.job().type(), leased.job().id(), leased.lease(), succeeded, Change.keep(),
                succeeded ? null : "it broke");
    }
}
