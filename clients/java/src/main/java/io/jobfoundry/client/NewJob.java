package io.jobfoundry.client;

import java.util.Objects;

/**
 * One item of a batch create: with an {@code id} it is a {@code PUT} (idempotent), without one a
 * {@code POST} that generates the id.
 *
 * @param type the job's type
 * @param id the job's id, or {@code null} to have one generated
 * @param spec the job's members
 */
public record NewJob(String type, String id, JobSpec spec) {

    /**
     * Checks the members.
     *
     * @param type the job's type
     * @param id the job's id, or {@code null}
     * @param spec the job's members
     */
    public NewJob {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(spec, "spec");
    }

    /**
     * An item with a generated id.
     *
     * @param type the job's type
     * @param spec the job's members
     * @return the item
     */
    public static NewJob of(String type, JobSpec spec) {
        return new NewJob(type, null, spec);
    }
}
