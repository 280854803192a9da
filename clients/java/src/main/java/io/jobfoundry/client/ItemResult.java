package io.jobfoundry.client;

/**
 * The answer to one item of a batch finish or heartbeat; items are independent.
 *
 * @param status {@code 200} done, {@code 409} halt, {@code 404} no such job
 * @param job the job as it is now when {@code status} is 200, else {@code null}
 * @param reason for a halt, {@code lease-lost}, {@code removed} or {@code cancelled}; else {@code null}
 */
public record ItemResult(int status, Job job, String reason) {

    /** @return whether the item was done */
    public boolean ok() {
        return status == 200;
    }

    /** @return whether the processor must stop working on the job (a halt, or a job that no longer exists) */
    public boolean halted() {
        return status == 409 || status == 404;
    }
}
