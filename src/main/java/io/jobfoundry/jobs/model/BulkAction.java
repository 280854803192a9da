package io.jobfoundry.jobs.model;

import java.util.Locale;

/** What {@code POST /v1/bulk} does to each matching job: what the single call of that name does. */
public enum BulkAction {
    /** As {@code POST .../cancel}: pending ends cancelled, a running job's processor is told so. */
    CANCEL,
    /** As {@code PUT} of a finished job: it runs again as a fresh run; jobs not finished are left alone. */
    RETRY,
    /** As {@code DELETE}: every trace gone, a running job's processor is told {@code removed}. */
    REMOVE;

    /** The most jobs one bulk action matches; the API's default is {@link #DEFAULT_LIMIT}. */
    public static final int MAX_LIMIT = 10_000;
    public static final int DEFAULT_LIMIT = 1_000;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
