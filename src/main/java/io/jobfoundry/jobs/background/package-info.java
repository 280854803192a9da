/**
 * The engine's background work, each a plain class with a {@code runOnce()} that tests drive with
 * a mutable clock and the service's {@code monitors} schedule: the activity monitor (jobs whose
 * processor went quiet come back), the due waker and its timer (scheduled jobs become ready at
 * their time), and the retention of accept and removal outcomes. Replicas may all run them.
 */
package io.jobfoundry.jobs.background;
