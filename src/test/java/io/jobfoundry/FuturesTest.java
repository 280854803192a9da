package io.jobfoundry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FuturesTest {

    /** Watches are let go with it; their owners (FDB's future, the embedded registry) look for a cancel. */
    @Test
    void cancelIsACancelWithoutAStackTrace() {
        CompletableFuture<Void> watch = new CompletableFuture<>();
        AtomicReference<Throwable> seen = new AtomicReference<>();
        watch.whenComplete((ignored, failure) -> seen.set(failure));

        assertTrue(Futures.cancel(watch));
        assertTrue(watch.isCancelled());
        assertInstanceOf(CancellationException.class, seen.get());
        assertEquals(0, seen.get().getStackTrace().length);
        assertThrows(CancellationException.class, watch::join);
        assertFalse(Futures.cancel(watch), "a done future stays as it was");
    }

    /** A hang-up cancels an answer with cancel(); the accept rounds let go of a watch with Futures.cancel. */
    @Test
    void aFollowingFutureCancelledEitherWayCancelsItsSourceAndAFailureDoesNot() {
        CompletableFuture<String> source = new CompletableFuture<>();
        CompletableFuture<Integer> following = Futures.following(source);
        assertTrue(following.cancel(true));
        assertTrue(source.isCancelled());

        CompletableFuture<String> watched = new CompletableFuture<>();
        assertTrue(Futures.cancel(Futures.following(watched)));
        assertTrue(watched.isCancelled());

        CompletableFuture<String> kept = new CompletableFuture<>();
        assertTrue(Futures.<Integer>following(kept).completeExceptionally(new IllegalStateException("failed")));
        assertFalse(kept.isDone(), "a failure of the follower is not a cancel of its source");
    }

    /** As whenComplete's action: told the value, or the very failure the future holds, once it completes. */
    @Test
    void whenDoneRunsTheActionWithTheValueOrTheFailureAsItIs() {
        AtomicReference<Object> seen = new AtomicReference<>();
        CompletableFuture<String> value = new CompletableFuture<>();
        Futures.whenDone(value, (done, failure) -> seen.set(failure == null ? done : failure));
        assertEquals(null, seen.get(), "not before it completes");
        value.complete("done");
        assertEquals("done", seen.get());

        IllegalStateException failure = new IllegalStateException("failed");
        Futures.whenDone(CompletableFuture.failedFuture(failure), (done, why) -> seen.set(why));
        assertSame(failure, seen.get());

        CompletableFuture<Void> watch = new CompletableFuture<>();
        Futures.whenDone(watch, (done, why) -> seen.set(why));
        Futures.cancel(watch);
        assertInstanceOf(CancellationException.class, seen.get());
        assertFalse(seen.get() instanceof CompletionException, "no wrapper made, nor its stack trace");
    }

    @Test
    void causeAndJoinUnwrapWhatFuturesWrapAround() {
        IllegalStateException failure = new IllegalStateException("the failure");
        assertSame(failure, Futures.cause(new CompletionException(new CompletionException(failure))));
        assertSame(failure, assertThrows(IllegalStateException.class,
                () -> Futures.join(CompletableFuture.failedFuture(failure))));
        assertEquals("done", Futures.join(CompletableFuture.completedFuture("done")));
    }
}
