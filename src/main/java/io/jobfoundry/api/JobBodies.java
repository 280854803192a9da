package io.jobfoundry.api;

import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobResult;
import io.jobfoundry.jobs.model.JobState;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.TypeSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The request members of the job calls, read from a {@link JsonBody} into the engine's terms. */
final class JobBodies {

    private JobBodies() {
    }

    /**
     * The members of an add or a patch: absent ones are left as they are; {@code data} and
     * {@code repeat} may be {@code null} (no data, no repeat); the others must have a value.
     */
    static JobChanges changes(JsonBody body) {
        return changes(body, new String[0]);
    }

    /** {@link #changes(JsonBody)} of a body that may also hold the {@code others} (a batch item's type and id). */
    static JobChanges changes(JsonBody body, String... others) {
        List<String> known = new ArrayList<>(List.of("data", "scheduledAt", "priority", "group", "repeat", "maxAttempts"));
        known.addAll(List.of(others));
        body.allow(known.toArray(String[]::new));
        return new JobChanges(
                body.jsonObject("data"),
                given(body.time("scheduledAt")),
                given(body.string("priority").map(JobBodies::priority)),
                given(body.string("group")),
                body.nullableString("repeat"),
                given(body.integer("maxAttempts", 1, TypeSettings.MAX_ATTEMPTS_LIMIT)));
    }

    static Priority priority(String text) {
        return switch (text) {
            case "high" -> Priority.HIGH;
            case "low" -> Priority.LOW;
            default -> throw new InvalidInputException("priority", "priority is \"high\" or \"low\", not "
                    + Problems.printable(text));
        };
    }

    /** {@code succeeded} or {@code failed}. */
    static boolean succeeded(String outcome) {
        return switch (outcome) {
            case "succeeded" -> true;
            case "failed" -> false;
            default -> throw new InvalidInputException("outcome", "outcome is \"succeeded\" or \"failed\", not "
                    + Problems.printable(outcome));
        };
    }

    /** A result filter: {@code succeeded}, {@code failed} or {@code cancelled}. */
    static JobResult result(String field, String text) {
        for (JobResult result : JobResult.values()) {
            if (result.wireName().equals(text)) {
                return result;
            }
        }
        throw new InvalidInputException(field, field + " is \"succeeded\", \"failed\" or \"cancelled\", not "
                + Problems.printable(text));
    }

    /** A state filter: {@code pending}, {@code running} or {@code finished}. */
    static JobState state(String field, String text) {
        for (JobState state : JobState.values()) {
            if (state.wireName().equals(text)) {
                return state;
            }
        }
        throw new InvalidInputException(field, field + " is \"pending\", \"running\" or \"finished\", not "
                + Problems.printable(text));
    }

    private static <T> Change<T> given(Optional<T> value) {
        return value.map(Change::to).orElse(Change.keep());
    }
}
