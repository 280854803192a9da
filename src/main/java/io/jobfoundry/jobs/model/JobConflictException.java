package io.jobfoundry.jobs.model;

import java.util.OptionalInt;

/** A change the job's current state does not allow, such as replacing a running job's data. */
public final class JobConflictException extends JobException {

    private final JobState state;
    private final String field;
    private final int item;

    public JobConflictException(String message, String type, String id, JobState state) {
        this(message, type, id, state, null, -1);
    }

    /** @param field the request member whose change the state does not allow */
    public JobConflictException(String message, String type, String id, JobState state, String field) {
        this(message, type, id, state, field, -1);
    }

    private JobConflictException(String message, String type, String id, JobState state, String field, int item) {
        super(message, type, id);
        this.state = state;
        this.field = field;
        this.item = item;
    }

    /** The same refusal, of item {@code index} of a batch: its detail and field name the item. */
    public static JobConflictException ofItem(int index, JobConflictException refused) {
        String item = "jobs[" + index + "]";
        return new JobConflictException(item + ": " + refused.getMessage(), refused.type(), refused.id(), refused.state,
                refused.field == null ? item : item + "." + refused.field, index);
    }

    public JobState state() {
        return state;
    }

    /** The request member at fault, or {@code null} when no one member is. */
    public String field() {
        return field;
    }

    /** The batch item at fault, for a refusal of one item of a batch. */
    public OptionalInt item() {
        return item < 0 ? OptionalInt.empty() : OptionalInt.of(item);
    }
}
