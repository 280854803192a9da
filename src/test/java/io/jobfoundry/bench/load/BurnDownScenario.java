package io.jobfoundry.bench.load;

import io.jobfoundry.bench.Crew;
import io.jobfoundry.bench.client.Accepted;
import io.jobfoundry.bench.client.JobfoundryClient;
import io.jobfoundry.bench.client.StoreTransactions;
import io.jobfoundry.bench.measure.ProgressTicker;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scenario 2, burn-down: N no-op jobs are queued first, then W workers drain them, each looping
 * accept({@code max}) → finish every job it got. With {@code max=10} one accept transaction
 * serves ten jobs, so the gap between the two rates is what batching the hand-out is worth.
 * A drain that is not recorded comes first ({@code --warmup-jobs}), as in the comparison: the
 * first seconds of a fresh JVM measure its JIT compiler, not the service.
 */
final class BurnDownScenario {

    private static final int ACCEPT_WAIT_MILLIS = 200; // only the last, partly idle accepts wait

    private final LoadTarget target;
    private final int jobs;
    private final int[] maxes;
    private final int warmup;

    BurnDownScenario(LoadTarget target, int jobs, int[] maxes, int warmup) {
        this.target = target;
        this.jobs = jobs;
        this.maxes = maxes;
        this.warmup = warmup;
    }

    void run() throws Exception {
        if (warmup > 0) {
            System.out.printf("burn-down warm-up, not recorded: %d jobs, max=%d%n", warmup, maxes[0]);
            drain(maxes[0], warmup);
        }
        for (int max : maxes) {
            System.out.printf("burn-down: %d no-op jobs queued, then %d workers drain them with max=%d%n", jobs,
                    target.workers, max);
            drain(max, jobs);
        }
    }

    private void drain(int max, int jobs) throws Exception {
        String type = LoadTarget.freshType("burndown");
        double fillRate = target.fill(type, jobs, i -> "{}");
        System.out.printf("  queued in at %.0f jobs/s%n", fillRate);
        AtomicLong finished = new AtomicLong();
        AtomicLong lastFinish = new AtomicLong();
        try (JobfoundryClient probe = target.connect()) {
            StoreTransactions transactions = StoreTransactions.start(probe);
            long start = System.nanoTime();
            boolean complete;
            try (ProgressTicker ticker = new ProgressTicker("max=" + max, finished::get, 2_000);
                    Crew crew = Crew.start("worker", target.workers, w -> {
                        try (JobfoundryClient client = target.connect()) {
                            while (finished.get() < jobs) {
                                for (Accepted job : client.accept(type, max, ACCEPT_WAIT_MILLIS, "w" + w)) {
                                    if (client.finish(job) && finished.incrementAndGet() == jobs) {
                                        lastFinish.set(System.nanoTime());
                                    }
                                }
                            }
                        }
                    })) {
                complete = crew.await(target.phaseLimit);
            }
            // Up to the last finish, not to the return of the idle workers' last accepts.
            double elapsed = ((complete ? lastFinish.get() : System.nanoTime()) - start) / 1e9;
            System.out.printf("  overall max=%d: %.0f jobs/s (%d jobs in %.2f s%s), store txn/job %s%n", max,
                    finished.get() / elapsed, finished.get(), elapsed, complete ? "" : ", stopped by --timeout",
                    StoreTransactions.format(transactions.perJob(finished.get())));
        }
    }
}
