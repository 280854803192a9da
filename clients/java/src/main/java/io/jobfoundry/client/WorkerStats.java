package io.jobfoundry.client;

/**
 * What a {@link Worker} has done so far.
 *
 * @param accepted jobs accepted
 * @param running jobs being handled or waiting for their finish to be sent
 * @param succeeded jobs finished {@code succeeded}
 * @param failed jobs finished {@code failed} (the handler threw)
 * @param halted jobs the service halted (cancelled, removed, lease lost): stopped, not finished
 * @param abandoned jobs still running when a shutdown's deadline passed: stopped, not finished, back after
 *     their activity timeout
 * @param lostFinishes finishes that could not be delivered after their retries (the job runs again after its
 *     activity timeout)
 * @param acceptCalls accept requests that returned jobs
 * @param largestAccept most jobs one accept returned
 * @param finishCalls single finish requests
 * @param finishBatches batch finish requests ({@code POST /v1/finish}) the service answered; a service that does not
 *     serve batch calls gets single ones instead
 * @param largestFinishBatch most items in one batch finish
 * @param heartbeatCalls single heartbeat requests
 * @param heartbeatBatches batch heartbeat requests ({@code POST /v1/heartbeat}) the service answered
 */
public record WorkerStats(long accepted, long running, long succeeded, long failed, long halted, long abandoned,
        long lostFinishes, long acceptCalls, long largestAccept, long finishCalls, long finishBatches,
        long largestFinishBatch, long heartbeatCalls, long heartbeatBatches) {
}
