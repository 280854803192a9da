/**
 * The data model and every transaction body over it (couch_jobs' {@code couch_jobs_fdb}).
 * {@link io.jobfoundry.jobs.records.JobKeys} packs and unpacks every key, and its Javadoc is the
 * key layout; {@link io.jobfoundry.jobs.records.JobRecord} is a job as stored, decoded afresh in
 * each attempt, and owns its moves between the indexes; the verbs' bodies ({@code Adds},
 * {@code Edits}, {@code Processing}, {@code Runs}, {@code Listing}) change it only through those
 * moves. Bodies take everything an attempt must repeat (time, nonce, jitter) as arguments, so
 * that every attempt of a transaction does the same.
 */
package io.jobfoundry.jobs.records;
