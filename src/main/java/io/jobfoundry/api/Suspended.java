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
 * <p>The answer is {@link Futures#following} the engine's future and completed from a
 * {@code handle} stage: no stage here completes a failure as a new {@code CompletionException},
 * whose stack trace the JVM would fill in on every 404.
 */
final class Suspended {

    private Suspended() {
    }

    static <T, R> CompletableFuture<R> map(CompletionStage<T> source, Function<T, R> answer) {
        return answerOn(source, answer, null);
    }

    /**
     * {@link #map}, answered on the request's own Vert.x context. The engine's futures complete on
     * the store's committer, which serves every transaction in turn: the answer is built and
     * written on the event loop that read the request instead, with no worker thread in between.
     */
    static <T, R> CompletableFuture<R> onRequestContext(CompletionStage<T> source, Function<T, R> answer) {
        return answerOn(source, answer, Vertx.currentContext());
    }

    /** The answer, settled where {@code source} completes, or on {@code context} if there is one and that is elsewhere. */
    private static <T, R> CompletableFuture<R> answerOn(CompletionStage<T> source, Function<T, R> answer, Context context) {
        CompletableFuture<R> result = Futures.following(source);
        source.handle((value, failure) -> {
            if (context == null || Vertx.currentContext() == context) {
                settle(result, value, failure, answer);
            } else {
                context.runOnContext(ignored -> settle(result, value, failure, answer));
            }
            return null;
        });
        return result;
    }

    private static <T, R> void settle(CompletableFuture<R> result, T value, Throwable failure, Function<T, R> answer) {
        if (failure != null) {
            result.completeExceptionally(Futures.cause(failure));
            return;
        }
        try {
            result.complete(answer.apply(value));
        } catch (RuntimeException | Error e) {
            result.completeExceptionally(e);
        }
    }
}
