package io.jobfoundry.jobs.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What the audit line of a bulk action says it acted on: every filter given, and nothing a group could forge. */
class JobFilterTest {

    @Test
    void aFilterDescribesWhatItCoversOnOneLine() {
        assertEquals("type *", JobFilter.ALL.describe());
        assertEquals("type email* (state finished, result failed, group \"tenant-a\")",
                new JobFilter("email*", JobState.FINISHED, JobResult.FAILED, "tenant-a").describe());
        assertEquals("type sms (group \"\")", new JobFilter("sms", null, null, "").describe());
        // A group's quote or backslash cannot end the quoted name and add a filter of its own.
        assertEquals("type sms (group \"a\\\"), state pending\\\\\")",
                new JobFilter("sms", null, null, "a\"), state pending\\").describe());
    }
}
