package io.jobfoundry.jobs.model;

import java.util.function.Function;

/**
 * One member of a create, replace or patch request: either left as it is, or set to a value
 * (which may be {@code null}, e.g. to drop a job's data or its repeat).
 */
public record Change<T>(boolean given, T value) {

    private static final Change<?> KEEP = new Change<>(false, null);

    @SuppressWarnings("unchecked")
    public static <T> Change<T> keep() {
        return (Change<T>) KEEP;
    }

    public static <T> Change<T> to(T value) {
        return new Change<>(true, value);
    }

    public T orElse(T current) {
        return given ? value : current;
    }

    public <R> Change<R> map(Function<T, R> mapper) {
        return given ? to(value == null ? null : mapper.apply(value)) : keep();
    }
}
