package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.HaltException;
import io.jobfoundry.jobs.model.HaltReason;
import io.jobfoundry.jobs.model.Job;

/**
 * A job as a processor's call left it, and the halt it must be told of, if any. A halt is
 * returned, not thrown, from a transaction body: the body's changes (a cancelled run ended) must
 * commit, and only then is the processor told to stop.
 */
public record Step(Job job, HaltReason halt) {

    /** The job, or the halt as the exception processors are answered with. */
    public Job orHalt(String type, String id) {
        if (halt != null) {
            throw new HaltException(type, id, halt);
        }
        return job;
    }
}
