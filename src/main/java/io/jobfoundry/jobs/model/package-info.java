/**
 * What callers of the engine see: jobs and their states, the changes a request asks for, type
 * settings, the rules for names, and the expected outcomes a caller must handle (a halt, an
 * unknown job, a conflict, invalid input). Values only: nothing here reads or writes the store.
 */
package io.jobfoundry.jobs.model;
