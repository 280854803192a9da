package io.jobfoundry.api;

import io.jobfoundry.JobfoundryException;
import java.util.List;

/**
 * A batch with invalid items: every item was checked, and the batch changed nothing. Answered
 * {@code 400} with {@code errors}, one per invalid item.
 */
final class InvalidBatchException extends JobfoundryException {

    /** What is wrong with the item at {@code index} (counted from 0); {@code field} names the member, or null. */
    record ItemError(int index, String field, String detail) {
    }

    private final List<ItemError> errors;

    InvalidBatchException(List<ItemError> errors) {
        super(detail(errors.size()), false);
        this.errors = List.copyOf(errors);
    }

    static String detail(int invalidItems) {
        return invalidItems + " invalid item(s) in the batch; nothing was changed";
    }

    List<ItemError> errors() {
        return errors;
    }
}
