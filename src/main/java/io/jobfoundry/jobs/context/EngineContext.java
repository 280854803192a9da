package io.jobfoundry.jobs.context;

import io.jobfoundry.jobs.records.Times;
import io.jobfoundry.kv.TransactionRunner;
import java.time.Clock;

/**
 * What every part of the engine runs with (River's base service archetype): the one retrying
 * transaction runner, the injected clock (the engine never reads the system time itself) and the
 * observer that metrics hang on. The façade, the accept path, the waits and the background
 * services are each built with it, not with one another.
 */
public record EngineContext(TransactionRunner runner, Clock clock, JobObserver observer) {

    /** Now, in the engine's microseconds since the epoch. */
    public long now() {
        return Times.micros(clock.instant());
    }
}
