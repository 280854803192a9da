package io.jobfoundry.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobfoundry.Futures;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.CallKey;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.Job;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.LeasedJob;
import io.jobfoundry.jobs.model.NewJob;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A client's repeat of a call that took effect (the HTTP {@code Idempotency-Key}): a PUT, a
 * resubmit or a batch create sent again under the same key, after a worker took the job it made
 * pending, changes nothing; the same call without a key, or under another key, runs the job once
 * more, as couch_jobs' add and resubmit of a running job do.
 *
 * <p>Part of the engine contract ({@link EngineFixture}): every backend's engine test implements it.
 */
public interface CallKeyContract extends EngineFixture {

    CallKey KEY = new CallKey("8e03978e-40d5-43e8-bc93-6894a57f9324");

    private Added put(String id, CallKey key) {
        return Futures.join(engine().putAsync("email", id, JobChanges.NONE.withData("{\"n\":1}"), key));
    }

    @Test
    default void aRepeatedPutThatMadeAJobPendingDoesNotRunItAgainOnceAWorkerTookIt() {
        assertTrue(put("a", KEY).created());
        LeasedJob running = acceptOne("email");
        Added repeat = put("a", KEY);
        assertTrue(repeat.created(), "answered as the call it repeats was");
        assertEquals(JobState.RUNNING, repeat.job().state());
        assertFalse(repeat.job().resubmit());
        assertEquals(JobState.FINISHED, finish(running, true).state());

        // The same PUT of the finished job, a new call: a fresh run; its repeat leaves that run alone.
        CallKey again = new CallKey("second-call");
        assertEquals(JobState.PENDING, put("a", again).job().state());
        LeasedJob rerun = acceptOne("email");
        assertFalse(put("a", again).job().resubmit());
        assertEquals(JobState.FINISHED, finish(rerun, true).state());
        assertTrue(accept("email", 1).isEmpty());
    }

    @Test
    default void aPutUnderAnotherKeyOrNoneIsANewCallAndFlagsTheRunningJob() {
        put("a", KEY);
        LeasedJob running = acceptOne("email");
        assertTrue(put("a", new CallKey("another-call")).job().resubmit());
        assertEquals(JobState.PENDING, finish(running, true).state());

        assertEquals("a", acceptOne("email").job().id()); // its second run
        put("b", KEY);
        acceptOne("email");
        assertTrue(put("b", null).job().resubmit());
    }

    @Test
    default void aRepeatedResubmitDoesNotRunTheJobAgain() {
        add("email", "a");
        assertEquals(JobState.FINISHED, finish(acceptOne("email"), true).state());
        assertEquals(JobState.PENDING, engine().resubmit("email", "a", null, null, KEY).state());
        LeasedJob running = acceptOne("email");
        Job repeat = engine().resubmit("email", "a", null, null, KEY);
        assertEquals(JobState.RUNNING, repeat.state());
        assertFalse(repeat.resubmit());
        assertEquals(JobState.FINISHED, finish(running, true).state());
    }

    @Test
    default void aRepeatedBatchRecognizesEveryItemItChanged() {
        List<NewJob> batch = List.of(new NewJob("email", "a", JobChanges.NONE),
                new NewJob("email", "b", JobChanges.NONE));
        assertTrue(Futures.join(engine().batches().createAll(batch, KEY)).stream().allMatch(Added::created));
        List<LeasedJob> running = accept("email", 2);
        assertEquals(2, running.size());
        List<Added> repeat = Futures.join(engine().batches().createAll(batch, KEY));
        assertTrue(repeat.stream().allMatch(Added::created));
        assertTrue(repeat.stream().noneMatch(added -> added.job().resubmit()));
        // A PUT under the batch's key is another call: keys name calls, and an item is not the call.
        assertTrue(put("a", KEY).job().resubmit());
        running.forEach(leased -> finish(leased, true));
        assertEquals(1, accept("email", 2).size());
    }

    /**
     * A PUT that found the job already as it asks, or a resubmit of a pending job without a time,
     * changes nothing; its repeat, once a worker has taken the job, must change nothing either.
     */
    @Test
    default void aRepeatOfACallThatChangedNothingDoesNotRunTheJobAgain() {
        put("a", KEY);
        CallKey same = new CallKey("the-same-again");
        Job unchanged = put("a", same).job();
        assertEquals(1, unchanged.revision(), "not a change clients see");
        LeasedJob running = acceptOne("email");
        assertFalse(put("a", same).job().resubmit());
        assertEquals(JobState.FINISHED, finish(running, true).state());

        add("email", "b");
        CallKey resubmit = new CallKey("resubmit-pending");
        assertEquals(1, engine().resubmit("email", "b", null, null, resubmit).revision(), "nothing to change");
        running = acceptOne("email");
        assertFalse(engine().resubmit("email", "b", null, null, resubmit).resubmit());
        assertEquals(JobState.FINISHED, finish(running, true).state());
    }

    /** The creating call's key is known for the job's life: the job keeps the nonce it was created by. */
    @Test
    default void theKeyOfTheCallThatCreatedTheJobIsKnownForItsLife() {
        put("a", KEY);
        Futures.join(engine().putAsync("email", "a", JobChanges.NONE.withData("{\"n\":2}"), new CallKey("second")));
        Added late = Futures.join(engine().putAsync("email", "a", JobChanges.NONE.withData("{\"n\":3}"), KEY));
        assertTrue(late.created(), "answered as the creation it repeats");
        assertEquals("{\"n\":2}", late.job().data());
    }

    /**
     * A repeat that comes after the job it made was removed makes it again: another incarnation,
     * which jobs that waited for the removed one do not take for theirs.
     */
    @Test
    default void aRepeatAfterARemovalMakesAnotherIncarnation() {
        put("a", KEY);
        engine().put("load", "l", JobChanges.NONE.withAfter(List.of(new JobRef("email", "a"))));
        engine().remove("email", "a");
        assertTrue(put("a", KEY).created());
        resolver().runOnce();
        assertEquals(JobResult.CANCELLED, engine().get("load", "l").orElseThrow().result());
    }

    @Test
    default void aKeyedBatchWithAnItemWithoutAnIdIsRefusedBeforeAnythingChanges() {
        List<NewJob> batch = List.of(new NewJob("email", "a", JobChanges.NONE),
                new NewJob("email", null, JobChanges.NONE));
        InvalidJobRequestException refused = assertThrows(InvalidJobRequestException.class,
                () -> engine().batches().createAll(batch, KEY));
        assertEquals("jobs[1].id", refused.field());
        assertTrue(engine().get("email", "a").isEmpty());
    }
}
