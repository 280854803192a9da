package io.jobfoundry;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;

/** The one place failures are taken out of the wrappers futures put around them. */
public final class Futures {

    private Futures() {
    }

    /** The failure itself, not the {@link CompletionException} or {@link ExecutionException} around it. */
    public static Throwable cause(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /**
     * Cancels {@code future} as {@link CompletableFuture#cancel} does, without filling in a stack
     * trace: the accept rounds let go of a watch every round, and nobody reads where it happened.
     */
    public static boolean cancel(CompletableFuture<?> future) {
        return future.completeExceptionally(new LetGo());
    }

    private static final class LetGo extends CancellationException {
        LetGo() {
            super("let go");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    /**
     * Runs {@code action} when {@code future} completes, as {@code whenComplete} does, for a caller
     * that has no use for the stage it would make: that stage completes a failure as a new
     * {@link CompletionException}, whose stack trace the JVM walks and fills in for no reader. The
     * accept rounds let go of their watches every round by cancelling them, and each stage watching
     * one did that: 2.6% of the store committer's CPU samples in the one-at-a-time workload (perf).
     * The stage made here completes normally, whatever {@code future} did.
     */
    public static <T> void whenDone(CompletionStage<T> future, BiConsumer<? super T, ? super Throwable> action) {
        future.handle((value, failure) -> {
            action.accept(value, failure);
            return null;
        });
    }

    /**
     * A future that follows {@code source}: cancelled — by {@code cancel}, or completed with a
     * {@link CancellationException} such as {@link #cancel}'s — it cancels {@code source} too.
     * Complete it from {@code source.handle(...)}, not {@code whenComplete}: the stage
     * {@code whenComplete} returns completes a failure as a new {@link CompletionException}, whose
     * stack trace the JVM walks and fills in for no reader (4% of a 404's CPU, when answers watched
     * for a cancel that way).
     */
    public static <T> CompletableFuture<T> following(CompletionStage<?> source) {
        return new Following<>(source);
    }

    private static final class Following<T> extends CompletableFuture<T> {

        private final CompletionStage<?> source;

        Following(CompletionStage<?> source) {
            this.source = source;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled) {
                source.toCompletableFuture().cancel(false);
            }
            return cancelled;
        }

        @Override
        public boolean completeExceptionally(Throwable failure) {
            boolean completed = super.completeExceptionally(failure);
            if (completed && failure instanceof CancellationException) {
                source.toCompletableFuture().cancel(false);
            }
            return completed;
        }
    }

    /** Waits for {@code future}; fails with what it failed with, unwrapped. */
    public static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            Throwable cause = cause(e);
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
