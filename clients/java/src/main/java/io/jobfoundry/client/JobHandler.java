package io.jobfoundry.client;

/**
 * The work a {@link Worker} does for one job.
 *
 * <p>Return normally and the job is finished {@code succeeded}; throw and it is finished {@code failed}
 * with the exception's message as its {@code lastError} (retried after the type's backoff while attempts
 * remain). When the service halts the job (it was cancelled, removed, or its lease was lost) the handler's
 * thread is interrupted and nothing it returns or throws is reported: let {@link InterruptedException}
 * propagate, or check {@link JobContext#isHalted()} in loops that do not block.
 */
@FunctionalInterface
public interface JobHandler {

    /**
     * Does the job.
     *
     * @param context the job, its data, and a way to report progress
     * @return the job's new data ({@code null}: leave it unchanged); for a repeating job, what its next run gets
     * @throws Exception to fail this attempt
     */
    Object handle(JobContext context) throws Exception;
}
