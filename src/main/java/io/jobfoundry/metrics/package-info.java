/**
 * Micrometer bindings, exported by Prometheus at {@code /q/metrics}: the engine's {@link
 * io.jobfoundry.jobs.JobObserver}, the store's transaction counters and the per-type job gauges.
 * Labels are bounded: type names, states, outcomes and retry reasons; never job ids.
 */
package io.jobfoundry.metrics;
