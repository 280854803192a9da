/**
 * Waiting without polling and without a thread per waiter: blocked accepts (one dispatcher per
 * set of types serves all its waiters in one transaction per round), {@code waitFor} and event
 * subscriptions, all resting on store watches, which on FoundationDB see other replicas' commits
 * too.
 */
package io.jobfoundry.jobs.waits;
