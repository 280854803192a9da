package io.jobfoundry.client;

import java.util.Objects;

/**
 * One finish, for {@link JobfoundryClient#finish(Finish)} or a batch of them.
 *
 * @param type the job's type
 * @param id the job's id
 * @param lease the lease it was accepted with
 * @param outcome succeeded or failed
 * @param data new data for the job ({@code null}: unchanged; a Jackson {@code NullNode}: remove it)
 * @param error for a failure, the error kept as the job's {@code lastError}; otherwise {@code null}
 */
public record Finish(String type, String id, String lease, Outcome outcome, Object data, String error) {

    /**
     * Checks the members.
     *
     * @param type the job's type
     * @param id the job's id
     * @param lease the lease
     * @param outcome the outcome
     * @param data new data, or {@code null}
     * @param error the error, or {@code null}
     */
    public Finish {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(outcome, "outcome");
    }

    /**
     * A success.
     *
     * @param job the job as accepted
     * @param data the job's new data ({@code null}: unchanged)
     * @return the finish
     */
    public static Finish succeeded(LeasedJob job, Object data) {
        return new Finish(job.type(), job.id(), job.lease(), Outcome.SUCCEEDED, data, null);
    }

    /**
     * A failed attempt.
     *
     * @param job the job as accepted
     * @param error what went wrong, kept as {@code lastError}
     * @return the finish
     */
    public static Finish failed(LeasedJob job, String error) {
        return new Finish(job.type(), job.id(), job.lease(), Outcome.FAILED, null, error);
    }
}
