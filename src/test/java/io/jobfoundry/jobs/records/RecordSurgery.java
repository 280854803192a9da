package io.jobfoundry.jobs.records;

import io.jobfoundry.kv.KvTransaction;

/**
 * Changes a stored job record behind the engine's back, for tests of records that an earlier
 * release or a defect could have left: what the engine must still handle though it would never
 * write it now.
 */
public final class RecordSurgery {

    private RecordSurgery() {
    }

    /** Stores {@code repeat} as the job's repeat as it is, without the checks an add or patch makes. */
    public static void storeRepeat(KvTransaction tx, String type, String id, String repeat, long now) {
        JobRecord r = JobRecord.load(tx, type, id);
        r.repeat = repeat;
        r.save(tx, now);
    }
}
