package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.model.BulkAction;
import io.jobfoundry.jobs.model.BulkResult;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobFilter;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.NewJob;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The listing across types and the bulk actions (issue 20, parts 4 and 5).
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it,
 * the fault-injected one included, where a step's commit may be reported failed after it took
 * effect: the counts must come out exact all the same.
 */
public interface ListAndBulkContract extends EngineFixture {

    private List<String> listEverything(JobFilter filter, Predicate<String> scope, int limit) {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            JobPage page = engine().listAll(filter, scope, limit, cursor);
            assertTrue(page.jobs().size() <= limit);
            page.jobs().forEach(job -> seen.add(job.type() + "/" + job.id()));
            cursor = page.next();
        } while (cursor != null);
        return seen;
    }

    private void addJobs(String type, int count) {
        for (int i = 0; i < count; i++) {
            add(type, String.format("%s-%03d", type, i));
        }
    }

    /** A job of {@code type} that failed its only attempt: finished, failed. */
    private void addFailed(String type, String id) {
        engine().put(type, id, JobChanges.NONE.withMaxAttempts(1));
        LeasedJob leased = acceptOne(type);
        assertEquals(id, leased.job().id());
        assertEquals(JobResult.FAILED, finish(leased, false).result());
    }

    @Test
    default void listingAcrossTypesPagesInTypeThenIdOrderWithoutGapsOrRepeats() {
        add("report", "r2");
        add("report", "r1");
        add("email.send", "e1");
        add("email", "b");
        add("email", "a");
        add("zeta", "z");
        List<String> all = List.of("email/a", "email/b", "email.send/e1", "report/r1", "report/r2", "zeta/z");
        for (int limit : new int[] {1, 2, 4, 100}) {
            assertEquals(all, listEverything(JobFilter.ALL, type -> true, limit), "limit " + limit);
        }
        assertEquals(List.of("email/a", "email/b", "email.send/e1"),
                listEverything(new JobFilter("email*", null, null, null), type -> true, 2));
        assertEquals(List.of("email/a", "email/b"),
                listEverything(new JobFilter("?????", null, null, null), type -> true, 1));
        assertEquals(List.of("zeta/z"), listEverything(new JobFilter("*e?a", null, null, null), type -> true, 1));
        assertEquals(List.of("report/r1", "report/r2"),
                listEverything(new JobFilter("report", null, null, null), type -> true, 1));
        assertEquals(List.of(), listEverything(new JobFilter("nothing*", null, null, null), type -> true, 10));
        // The page that ends with the last job says so: no empty page after it.
        JobPage whole = engine().listAll(JobFilter.ALL, 6, null);
        assertEquals(6, whole.jobs().size());
        assertNull(whole.next());
    }

    @Test
    default void listingAcrossTypesFiltersByStateResultAndGroup() {
        engine().put("email", "g1", JobChanges.NONE.withGroup("tenant-1"));
        engine().put("report", "g2", JobChanges.NONE.withGroup("tenant-1"));
        add("report", "plain");
        addFailed("sms", "failed");
        add("sms", "waiting");
        LeasedJob running = acceptOne("email");
        assertEquals("g1", running.job().id());
        assertEquals(List.of("email/g1", "report/g2"),
                listEverything(new JobFilter(null, null, null, "tenant-1"), type -> true, 1));
        assertEquals(List.of("report/plain", "sms/failed", "sms/waiting"),
                listEverything(new JobFilter(null, null, null, ""), type -> true, 1));
        assertEquals(List.of("email/g1"), listEverything(new JobFilter(null, JobState.RUNNING, null, null), t -> true, 1));
        assertEquals(List.of("report/g2", "report/plain", "sms/waiting"),
                listEverything(new JobFilter(null, JobState.PENDING, null, null), type -> true, 2));
        assertEquals(List.of("sms/failed"), listEverything(new JobFilter("*", null, JobResult.FAILED, null), t -> true, 5));
        assertEquals(List.of(), listEverything(new JobFilter("*", null, JobResult.SUCCEEDED, null), t -> true, 5));
    }

    /** What an access scope narrows to: the types it leaves out are neither listed nor touched. */
    @Test
    default void aScopeNarrowsTheListingAndTheBulkToItsTypes() {
        addJobs("email", 3);
        addJobs("report", 2);
        addJobs("sms", 2);
        Predicate<String> notReports = type -> !type.equals("report");
        assertEquals(List.of("email/email-000", "email/email-001", "email/email-002", "sms/sms-000", "sms/sms-001"),
                listEverything(JobFilter.ALL, notReports, 2));
        BulkResult removed = engine().bulk(BulkAction.REMOVE, new JobFilter("*", null, null, null), notReports, 100);
        assertEquals(new BulkResult(5, 5), removed);
        assertEquals(List.of("report/report-000", "report/report-001"), listEverything(JobFilter.ALL, t -> true, 10));
    }

    @Test
    default void aCursorTheServiceDidNotHandOutAndABadGlobAreRefused() {
        addJobs("email", 3);
        String perType = engine().list("email", null, null, null, 1, null).next();
        assertNotNull(perType);
        for (String cursor : new String[] {"!!", "", "AA", perType, "AmVtYWlsAA="}) {
            InvalidJobRequestException refused = assertThrows(InvalidJobRequestException.class,
                    () -> engine().listAll(JobFilter.ALL, 1, cursor), cursor);
            assertEquals("cursor", refused.field());
        }
        assertEquals("type", assertThrows(InvalidJobRequestException.class,
                () -> new JobFilter("email/x", null, null, null)).field());
        assertEquals("limit", assertThrows(InvalidJobRequestException.class,
                () -> engine().listAll(JobFilter.ALL, 0, null)).field());
        assertEquals("limit", assertThrows(InvalidJobRequestException.class,
                () -> engine().listAll(JobFilter.ALL, 1001, null)).field());
        // A cursor handed out goes on where its page ended.
        JobPage first = engine().listAll(JobFilter.ALL, 1, null);
        assertEquals("email-001", engine().listAll(JobFilter.ALL, 1, first.next()).jobs().get(0).id());
    }

    /**
     * More jobs than a page looks at, none of them matching: the first page comes back empty with a
     * next, and paging on (as a bulk does) still reaches the one job that matches.
     */
    @Test
    default void aPageScansBoundedlySoAFilteredPageMayBeEmptyWithANext() {
        add("busy.b", "the-one");
        acceptOne("busy.b");
        for (int batch = 0; batch < 6; batch++) {
            List<NewJob> jobs = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                jobs.add(new NewJob("busy.a", String.format("j%d-%04d", batch, i), JobChanges.NONE));
            }
            Futures.join(engine().batches().createAll(jobs));
        }
        JobFilter running = new JobFilter("busy.*", JobState.RUNNING, null, null);
        JobPage first = engine().listAll(running, 10, null);
        assertEquals(List.of(), first.jobs());
        assertNotNull(first.next(), "a page stops after a bounded scan");
        assertEquals(List.of("busy.b/the-one"), listEverything(running, type -> true, 10));
        assertEquals(new BulkResult(1, 1), engine().bulk(BulkAction.CANCEL, running, 10));
        assertEquals(6000, engine().type("busy.a").orElseThrow().counts().pending(), "pending jobs left alone");
    }

    @Test
    default void bulkCancelEndsPendingJobsAndTellsRunningOnesProcessors() {
        addJobs("email", 3);
        LeasedJob running = acceptOne("email");
        addFailed("report", "done");
        BulkResult result = engine().bulk(BulkAction.CANCEL, new JobFilter("*", null, null, null), 1000);
        assertEquals(new BulkResult(4, 3), result, "the finished job matches and is left as it is");
        HaltException halt = assertThrows(HaltException.class,
                () -> engine().heartbeat("email", running.job().id(), running.lease(), Change.keep()));
        assertEquals(HaltReason.CANCELLED, halt.reason());
        Counts counts = engine().type("email").orElseThrow().counts();
        assertEquals(0, counts.pending());
        assertEquals(3, counts.cancelled());
        assertEquals(JobResult.FAILED, engine().get("report", "done").orElseThrow().result());
        // Again: everything matches, nothing changes.
        assertEquals(new BulkResult(4, 0), engine().bulk(BulkAction.CANCEL, new JobFilter("*", null, null, null), 1000));
    }

    @Test
    default void bulkRetryRunsFinishedJobsAgainAsFreshRunsAndLeavesTheOthers() {
        addFailed("email", "f1");
        addFailed("email", "f2");
        add("email", "waiting");
        engine().cancel("email", "waiting");
        add("email", "pending");
        BulkResult failedOnly = engine().bulk(BulkAction.RETRY, new JobFilter("email", null, JobResult.FAILED, null), 1000);
        assertEquals(new BulkResult(2, 2), failedOnly);
        for (String id : List.of("f1", "f2")) {
            Job job = engine().get("email", id).orElseThrow();
            assertEquals(JobState.PENDING, job.state());
            assertEquals(0, job.attempt(), "a fresh run");
            assertNull(job.lastError());
            assertNull(job.result());
        }
        assertEquals(JobState.FINISHED, engine().get("email", "waiting").orElseThrow().state());
        // Without a state: pending jobs match and are left alone; the cancelled one runs again.
        assertEquals(new BulkResult(4, 1), engine().bulk(BulkAction.RETRY, new JobFilter("email", null, null, null), 1000));
        Counts counts = engine().type("email").orElseThrow().counts();
        assertEquals(4, counts.pending());
        assertEquals(0, counts.failed() + counts.cancelled());
        assertEquals(4, accept("email", 10).size(), "retried jobs are handed out");
    }

    @Test
    default void bulkRemoveTakesEveryTraceAndTellsRunningJobsProcessors() {
        addJobs("email", 3);
        addJobs("email.bulk", 2);
        addJobs("report", 2);
        LeasedJob running = acceptOne("email");
        BulkResult result = engine().bulk(BulkAction.REMOVE, new JobFilter("email*", null, null, null), 1000);
        assertEquals(new BulkResult(5, 5), result);
        HaltException halt = assertThrows(HaltException.class,
                () -> engine().heartbeat("email", running.job().id(), running.lease(), Change.keep()));
        assertEquals(HaltReason.REMOVED, halt.reason());
        assertEquals(Counts.NONE, engine().type("email").orElseThrow().counts());
        assertEquals(Counts.NONE, engine().type("email.bulk").orElseThrow().counts());
        assertEquals(List.of("report/report-000", "report/report-001"), listEverything(JobFilter.ALL, t -> true, 10));
        assertEquals(new BulkResult(0, 0), engine().bulk(BulkAction.REMOVE, new JobFilter("email*", null, null, null), 1000));
    }

    /** More jobs than one step takes: several transactions, and the limit counts matched jobs. */
    @Test
    default void bulkStopsAtItsLimitAcrossSteps() {
        addJobs("email", 150);
        addJobs("sms", 80);
        BulkResult first = engine().bulk(BulkAction.CANCEL, new JobFilter("*", JobState.PENDING, null, null), 170);
        assertEquals(new BulkResult(170, 170), first);
        assertEquals(150, engine().type("email").orElseThrow().counts().cancelled());
        assertEquals(20, engine().type("sms").orElseThrow().counts().cancelled());
        assertEquals(60, engine().type("sms").orElseThrow().counts().pending());
        BulkResult rest = engine().bulk(BulkAction.CANCEL, new JobFilter("*", JobState.PENDING, null, null), 1000);
        assertEquals(new BulkResult(60, 60), rest);
        assertEquals(new BulkResult(0, 0), engine().bulk(BulkAction.CANCEL,
                new JobFilter("*", JobState.PENDING, null, null), 1000));
    }

    @Test
    default void aBulkWithoutATypeOrWithABadLimitChangesNothing() {
        addJobs("email", 2);
        assertEquals("type", assertThrows(InvalidJobRequestException.class,
                () -> engine().bulk(BulkAction.REMOVE, JobFilter.ALL, 1000)).field());
        assertEquals("limit", assertThrows(InvalidJobRequestException.class,
                () -> engine().bulk(BulkAction.REMOVE, new JobFilter("*", null, null, null), 0)).field());
        assertEquals("limit", assertThrows(InvalidJobRequestException.class,
                () -> engine().bulk(BulkAction.REMOVE, new JobFilter("*", null, null, null), 10_001)).field());
        assertEquals("action", assertThrows(InvalidJobRequestException.class,
                () -> engine().bulk(null, new JobFilter("*", null, null, null), 10)).field());
        assertEquals(2, engine().type("email").orElseThrow().counts().pending());
    }
}
