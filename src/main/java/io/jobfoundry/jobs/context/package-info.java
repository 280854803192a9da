/**
 * What every part of the engine runs with (River's base service): the transaction runner, the
 * injected clock and the metrics observer ({@link io.jobfoundry.jobs.context.EngineContext}), the
 * engine's options, and the backoff after a failed store watch. Parts are built with these, not
 * with one another.
 */
package io.jobfoundry.jobs.context;
