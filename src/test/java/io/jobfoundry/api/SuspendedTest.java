package io.jobfoundry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** An answer carries the engine's outcome as it is, and a hang-up (a cancel) reaches the engine's wait. */
class SuspendedTest {

    @Test
    void aCancelledAnswerCancelsWhatItWaitsFor() {
        CompletableFuture<String> engine = new CompletableFuture<>();
        CompletableFuture<Integer> answer = Suspended.map(engine, String::length);
        assertTrue(answer.cancel(true));
        assertTrue(engine.isCancelled(), "the engine's wait was not cancelled");
    }

    @Test
    void theAnswerIsTheEnginesValueMapped() throws Exception {
        CompletableFuture<String> engine = new CompletableFuture<>();
        CompletableFuture<Integer> answer = Suspended.map(engine, String::length);
        engine.complete("four");
        assertEquals(4, answer.get());
    }

    /** Not wrapped: the exception mappers see the engine's exception, or the one the mapping threw, itself. */
    @Test
    void aFailureIsPassedOnAsItIs() {
        IllegalStateException thrown = new IllegalStateException("no such job");
        CompletableFuture<String> found = new CompletableFuture<>();
        CompletableFuture<Integer> notFound = Suspended.map(found, value -> {
            throw thrown;
        });
        found.complete("x");
        assertSame(thrown, assertThrows(ExecutionException.class, notFound::get).getCause());

        IllegalArgumentException engineFailure = new IllegalArgumentException("refused");
        CompletableFuture<String> wrapped = new CompletableFuture<>();
        CompletableFuture<Integer> refused = Suspended.map(wrapped, String::length);
        wrapped.completeExceptionally(new CompletionException(engineFailure));
        assertSame(engineFailure, assertThrows(ExecutionException.class, refused::get).getCause());
    }
}
