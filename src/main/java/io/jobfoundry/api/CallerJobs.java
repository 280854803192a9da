package io.jobfoundry.api;

import io.jobfoundry.auth.Caller;
import io.jobfoundry.jobs.JobEngine;
import io.jobfoundry.jobs.ScopedJobs;
import io.jobfoundry.jobs.waits.JobWaits;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The engine as the current request's caller may use it ({@link ScopedJobs}): every resource
 * reaches jobs through this, so a token's type scope holds on every endpoint. Called after the
 * resource method's role check, when the identity is known.
 */
@ApplicationScoped
class CallerJobs {

    private final JobEngine engine;
    private final JobWaits waits;
    private final CurrentIdentityAssociation identity;

    CallerJobs(JobEngine engine, JobWaits waits, CurrentIdentityAssociation identity) {
        this.engine = engine;
        this.waits = waits;
        this.identity = identity;
    }

    ScopedJobs jobs() {
        var who = identity.getIdentity();
        return new ScopedJobs(engine, waits, Caller.scope(who), Caller.name(who));
    }

    /**
     * For a call whose role depends on its body (a resubmit with or without a lease), which an
     * annotation cannot say.
     *
     * @throws ForbiddenException if the caller lacks {@code role}
     */
    void require(String role) {
        if (!identity.getIdentity().hasRole(role)) {
            throw new ForbiddenException("the token's roles do not include " + role);
        }
    }
}
