package io.jobfoundry;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

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
