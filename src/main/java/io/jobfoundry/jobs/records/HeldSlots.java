package io.jobfoundry.jobs.records;

import com.apple.foundationdb.tuple.Tuple;

/**
 * The concurrency permits of one run ({@code ("l", type, slot)}, {@code ("m", type, group, slot)} in
 * {@link JobKeys}): its slot of the type's {@code max} and of {@code group}'s {@code perGroup}, each
 * null if it holds none. The group is kept because a client's add while the job runs may move it
 * to another group for its next run, while the permit stays with the group it was started in.
 * Stored as one nested tuple in the record's tail ({@link RecordFormat}).
 */
public record HeldSlots(Long typeSlot, String group, Long groupSlot) {

    Tuple encode() {
        return Tuple.from(typeSlot, group, groupSlot);
    }

    static HeldSlots decode(Tuple t) {
        return t == null ? null : new HeldSlots((Long) t.get(0), t.getString(1), (Long) t.get(2));
    }
}
