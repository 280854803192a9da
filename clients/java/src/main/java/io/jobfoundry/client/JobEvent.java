package io.jobfoundry.client;

/**
 * One event of a job's stream ({@link JobfoundryClient#events}): its state, or its removal, which ends the stream.
 *
 * @param type the job's type
 * @param id the job's id
 * @param job the job as it is now; {@code null} when it was removed
 */
public record JobEvent(String type, String id, Job job) {

    /** @return whether the job was removed (the last event of its stream) */
    public boolean removed() {
        return job == null;
    }
}
