package io.jobfoundry.jobs.accept;

import io.jobfoundry.jobs.model.AcceptRequest;
import io.jobfoundry.jobs.model.LeasedJob;
import java.util.List;

/**
 * A processor blocked in accept, claimed so that nothing else serves it until settled, which a
 * job being added may go to directly ({@link Accepting#addAndHandOff}).
 */
public interface HandOff {

    AcceptRequest request();

    /** Once the transaction is over: the jobs it took for the request; none if it failed or found none. */
    void settle(List<LeasedJob> jobs);
}
