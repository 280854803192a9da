package io.jobfoundry.client;

import java.util.Objects;

/**
 * One heartbeat, for {@link JobfoundryClient#heartbeat(Heartbeat)} or a batch of them.
 *
 * @param type the job's type
 * @param id the job's id
 * @param lease the lease it was accepted with
 * @param data progress: the job's new data ({@code null}: unchanged; a Jackson {@code NullNode}: remove it)
 */
public record Heartbeat(String type, String id, String lease, Object data) {

    /**
     * Checks the members.
     *
     * @param type the job's type
     * @param id the job's id
     * @param lease the lease
     * @param data progress data, or {@code null}
     */
    public Heartbeat {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(lease, "lease");
    }

    /**
     * A heartbeat for an accepted job.
     *
     * @param job the job as accepted
     * @param data progress data, or {@code null} to leave the data unchanged
     * @return the heartbeat
     */
    public static Heartbeat of(LeasedJob job, Object data) {
        return new Heartbeat(job.type(), job.id(), job.lease(), data);
    }
}
