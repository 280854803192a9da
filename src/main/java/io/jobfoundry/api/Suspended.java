package io.jobfoundry.api;

import io.jobfoundry.Futures;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Answers that wait for the engine without holding a thread: Quarkus REST suspends a request whose
 * resource returns a stage, and cancels a returned {@link CompletableFuture} when the client hangs
 * up — which is passed on to the engine's wait, so a blocked accept whose worker left is not
 * handed a job.
 *
 * <p>No stage here depends on another through {@code whenComplete}: the stage {@code whenComplete}
 * returns completes a failure as a new {@code CompletionException}, whose stack trace the JVM walks
 * and fills in, deep on an event loop — 4% of a 404's CPU (perf), for an exception no one reads.
 * The answer is completed from {@code handle} (whose own stage completes normally), and passes a
 * cancel on by overriding {@link CompletableFuture#cancel}.
 */
final class Suspended {

    private Suspended() {
    }

    static <T, R> CompletableFuture<R> map(CompletionStage<T> source, Function<T, R> answer) {
        Answer<R> result = new Answer<>(source);
        source.handle((value, failure) -> {
            result.settle(value, failure, answer);
            return null;
        });
        return result;
    }

    /**
     * {@link #map}, answered on the request's own Vert.x context. The engine's futures complete on
     * the store's committer, which serves every transaction in turn: the answer is built and
     * written on the event loop that read the request instead, with no worker thread in between.
     */
    static <T, R> CompletableFuture<R> onRequestContext(CompletionStage<T> source, Function<T, R> answer) {
        Context context = Vertx.currentContext();
        if (context == null) {
            return map(source, answer);
        }
        Answer<R> result = new Answer<>(source);
        source.handle((value, failure) -> {
            if (Vertx.currentContext() == context) {
                result.settle(value, failure, answer);
            } else {
                context.runOnContext(ignored -> result.settle(value, failure, answer));
            }
            return null;
        });
        return result;
    }

    /** The answer to a request; cancelled (the client hung up), it cancels what it waits for. */
    private static final class Answer<R> extends CompletableFuture<R> {

        private final CompletionStage<?> awaited;

        Answer(CompletionStage<?> awaited) {
            this.awaited = awaited;
        }

        <T> void settle(T value, Throwable failure, Function<T, R> answer) {
            if (failure != null) {
                completeExceptionally(Futures.cause(failure));
                return;
            }
            try {
                complete(answer.apply(value));
            } catch (RuntimeException | Error e) {
                completeExceptionally(e);
            }
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled) {
                awaited.toCompletableFuture().cancel(false);
            }
            return cancelled;
        }
    }
}
