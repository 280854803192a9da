package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.apple.foundationdb.tuple.Tuple;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobPage;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.LeasedJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A type's finished jobs, the latest finished first: where an operator finds today's failures
 * without paging through every job in id order.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it,
 * the fault-injected one included.
 */
public interface RecentListingContract extends EngineFixture {

    private List<String> listRecent(String type, JobResult result, String group, int limit) {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            JobPage page = engine().listRecent(type, result, group, limit, cursor);
            assertTrue(page.jobs().size() <= limit);
            page.jobs().forEach(job -> seen.add(job.id()));
            cursor = page.next();
        } while (cursor != null);
        return seen;
    }

    /** Runs the next due job of {@code type} to {@code succeeded} or failed, a second after the last. */
    private String runNext(String type, boolean succeeded) {
        clock().advance(Duration.ofSeconds(1));
        LeasedJob leased = acceptOne(type);
        finish(leased, succeeded);
        return leased.job().id();
    }

    @Test
    default void finishedJobsAreListedLatestFirstAcrossResultsAndPagedWithoutGapsOrRepeats() {
        // Finished in the opposite order of their ids, a second apart, so the two orders differ.
        engine().put("report", "e", JobChanges.NONE);
        assertEquals("e", runNext("report", true));
        engine().put("report", "d", JobChanges.NONE.withMaxAttempts(1));
        assertEquals("d", runNext("report", false));
        engine().put("report", "c", JobChanges.NONE.withGroup("tenant-c"));
        assertEquals("c", runNext("report", true));
        add("report", "b");
        clock().advance(Duration.ofSeconds(1));
        engine().cancel("report", "b");
        add("report", "a");
        LeasedJob running = acceptOne("report"); // running: not finished, not listed
        add("report", "pending");
        List<String> latestFirst = List.of("b", "c", "d", "e");
        for (int limit : new int[] {1, 2, 3, 100}) {
            assertEquals(latestFirst, listRecent("report", null, null, limit), "limit " + limit);
        }
        assertEquals(List.of("c", "e"), listRecent("report", JobResult.SUCCEEDED, null, 1));
        assertEquals(List.of("d"), listRecent("report", JobResult.FAILED, null, 1));
        assertEquals(List.of("b"), listRecent("report", JobResult.CANCELLED, null, 5));
        assertEquals(List.of("c"), listRecent("report", null, "tenant-c", 1));
        assertEquals(List.of("b", "d", "e"), listRecent("report", null, "", 2));
        assertEquals(List.of(), listRecent("other", null, null, 10));
        assertEquals("a", running.job().id());
    }

    /**
     * Jobs that finish in the same millisecond (a batch finish shares one time) come in the index's
     * order, the ids' UTF-8 bytes, whatever their results: paging one at a time across results must
     * neither skip nor repeat one, including ids whose UTF-16 order differs from their UTF-8 order.
     */
    @Test
    default void jobsFinishedAtTheSameTimeArePagedInTheIndexOrderAcrossResults() {
        List<String> ids = List.of("\uFF71", "\uD83D\uDE00", "b", "a"); // halfwidth katakana, an emoji, ASCII
        for (String id : ids) {
            engine().put("tie", id, JobChanges.NONE.withMaxAttempts(1));
        }
        clock().advance(Duration.ofSeconds(1));
        List<LeasedJob> leased = accept("tie", 4);
        assertEquals(4, leased.size());
        boolean succeeded = true;
        for (LeasedJob job : leased) {
            finish(job, succeeded); // at one time, with alternating results
            succeeded = !succeeded;
        }
        // Greater UTF-8 bytes first: the emoji (F0 ...) before the katakana (EF ...), though
        // String.compareTo puts the katakana (FF71) after the emoji's surrogate (D83D).
        List<String> expected = List.of("\uD83D\uDE00", "\uFF71", "b", "a");
        for (int limit : new int[] {1, 2, 3, 10}) {
            assertEquals(expected, listRecent("tie", null, null, limit), "limit " + limit);
        }
    }

    /** A group filter that keeps few jobs reads on in batches until the page is full or the jobs run out. */
    @Test
    default void aGroupFilterFindsTheFewJobsItKeepsAmongMany() {
        engine().put("mixed", "0-tenant", JobChanges.NONE.withGroup("tenant-x"));
        runNext("mixed", true);
        for (int i = 0; i < 150; i++) {
            add("mixed", String.format("job-%03d", i));
        }
        clock().advance(Duration.ofSeconds(1));
        for (int round = 0; round < 3; round++) {
            for (LeasedJob job : accept("mixed", 50)) {
                finish(job, true);
            }
        }
        assertEquals(151, listRecent("mixed", null, null, 1000).size());
        assertEquals(List.of("0-tenant"), listRecent("mixed", null, "tenant-x", 1));
        assertEquals(List.of("0-tenant"), listRecent("mixed", JobResult.SUCCEEDED, "tenant-x", 5));
    }

    /** A job run again is no longer finished: it leaves the listing, and comes back at its new finish. */
    @Test
    default void aJobRunAgainLeavesTheListingUntilItFinishesAgain() {
        engine().put("sms", "x", JobChanges.NONE.withMaxAttempts(1));
        engine().put("sms", "y", JobChanges.NONE.withMaxAttempts(1));
        runNext("sms", false);
        runNext("sms", true);
        assertEquals(List.of("y", "x"), listRecent("sms", null, null, 10));
        add("sms", "x"); // a PUT of a finished job: a fresh run
        assertEquals(List.of("y"), listRecent("sms", null, null, 10));
        assertEquals(List.of(), listRecent("sms", JobResult.FAILED, null, 10));
        assertEquals("x", runNext("sms", true));
        assertEquals(List.of("x", "y"), listRecent("sms", null, null, 1));
        engine().remove("sms", "y");
        assertEquals(List.of("x"), listRecent("sms", null, null, 10));
        // Retention (a day for succeeded jobs, by default) removes a job from the listing with the job.
        clock().advance(Duration.ofDays(1));
        cleaner().runOnce();
        assertEquals(List.of(), listRecent("sms", null, null, 10));
    }

    @Test
    default void aCursorOfTheOtherOrderOrNotHandedOutIsRefused() {
        for (String id : List.of("a", "b", "c")) {
            engine().put("email", id, JobChanges.NONE);
            runNext("email", true);
        }
        String recent = engine().listRecent("email", null, null, 1, null).next();
        String byId = engine().list("email", null, null, null, 1, null).next();
        assertEquals("cursor", assertThrows(InvalidJobRequestException.class,
                () -> engine().listRecent("email", null, null, 1, byId)).field());
        assertEquals("cursor", assertThrows(InvalidJobRequestException.class,
                () -> engine().list("email", null, null, null, 1, recent)).field());
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        for (String bad : List.of("!!", "", "MTIz", // "123"
                base64.encodeToString(Tuple.from(-1L, "a").pack()), // before 1970
                base64.encodeToString(Tuple.from(5L, "a", "b").pack()), // not a position
                base64.encodeToString(Tuple.from(5L, "a/b").pack()), // no job has that id
                base64.encodeToString(Tuple.from(5L, "a").pack()) + "=")) { // padded: not as handed out
            assertEquals("cursor", assertThrows(InvalidJobRequestException.class,
                    () -> engine().listRecent("email", null, null, 1, bad)).field(), bad);
        }
        assertEquals("limit", assertThrows(InvalidJobRequestException.class,
                () -> engine().listRecent("email", null, null, 0, null)).field());
        assertEquals("type", assertThrows(InvalidJobRequestException.class,
                () -> engine().listRecent("a/b", null, null, 1, null)).field());
        JobPage last = engine().listRecent("email", null, null, 3, null);
        assertEquals(3, last.jobs().size());
        assertNull(last.next());
    }
}
