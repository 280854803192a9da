package io.jobfoundry.jobs.model;

/**
 * How many jobs of a type may run at once: {@code max} of the type, {@code perGroup} of each
 * fairness group; {@code null} for no such limit. Accept never starts a job past either, on any
 * replica ({@code docs/architecture.md}, "Concurrency and rate limits").
 */
public record Concurrency(Integer max, Integer perGroup) {

    /** No limit at all: what a type has unless configured, and what settings stored before limits read as. */
    public static final Concurrency NONE = new Concurrency(null, null);

    /**
     * The most a limit takes. Each running job holds one slot key per limit, and an accept that
     * finds a limit nearly used up reads its slots: 10,000 keep that read within one FDB range
     * read of modest size.
     */
    public static final int MAX_LIMIT = 10_000;

    public Concurrency {
        check("concurrency.max", max);
        check("concurrency.perGroup", perGroup);
    }

    private static void check(String field, Integer limit) {
        if (limit != null && (limit < 1 || limit > MAX_LIMIT)) {
            throw new InvalidJobRequestException(field, field + " must be within 1.." + MAX_LIMIT + ", or null for no limit");
        }
    }

    /** Whether either limit is set. */
    public boolean limited() {
        return max != null || perGroup != null;
    }
}
