/**
 * The job engine: {@link io.jobfoundry.jobs.JobEngine}, the façade whose operations are
 * couch_jobs' add, remove, accept, update, finish and resubmit (plus cancel, patch, list and
 * types), each one transaction whose body lives in {@code records}. The sub-packages, from the
 * bottom up: {@code model} (what callers see), {@code records} (the keys, the stored job and the
 * transaction bodies), {@code context} (what every part runs with), {@code accept} (the
 * transactions that lease jobs out), {@code waits} (waiting without polling) and
 * {@code background} (the monitors). docs/architecture.md has a paragraph on each.
 */
package io.jobfoundry.jobs;
