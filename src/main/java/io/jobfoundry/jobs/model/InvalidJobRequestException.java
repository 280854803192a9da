package io.jobfoundry.jobs.model;

import java.util.OptionalInt;

/** A request the engine refuses outright (a bad name, a bad value); nothing was changed. */
public final class InvalidJobRequestException extends JobException {

    private final String field;
    /** The batch item at fault, counted from 0; -1 outside a batch. */
    private final int item;

    public InvalidJobRequestException(String field, String message) {
        this(field, message, -1);
    }

    private InvalidJobRequestException(String field, String message, int item) {
        super(message, null, null);
        this.field = field;
        this.item = item;
    }

    /**
     * {@code refused} as the refusal of a batch's item {@code index}: its field and message name the
     * item ({@code jobs[3].after[0]}), and {@link #item} tells which it is, so that the batch is
     * answered like one whose items were refused before it ran.
     */
    public static InvalidJobRequestException ofItem(int index, InvalidJobRequestException refused) {
        String item = "jobs[" + index + "]";
        return new InvalidJobRequestException(refused.field == null ? item : item + "." + refused.field,
                item + ": " + refused.getMessage(), index);
    }

    /** The request member at fault. */
    public String field() {
        return field;
    }

    /** The batch item at fault, if the request was a batch. */
    public OptionalInt item() {
        return item < 0 ? OptionalInt.empty() : OptionalInt.of(item);
    }
}
