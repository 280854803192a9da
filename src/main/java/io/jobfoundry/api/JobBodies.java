package io.jobfoundry.api;

import io.jobfoundry.jobs.model.AfterFailure;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobRef;
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
        List<String> known = new ArrayList<>(List.of("data", "scheduledAt", "priority", "group", "repeat", "maxAttempts",
                "after", "afterFailure"));
        known.addAll(List.of(others));
        body.allow(known.toArray(String[]::new));
        return new JobChanges(
                body.jsonObject("data"),
                given(body.time("scheduledAt")),
                given(body.string("priority").map(text -> priority(body.field("priority"), text))),
                given(body.string("group")),
                body.nullableString("repeat"),
                given(body.integer("maxAttempts", 1, TypeSettings.MAX_ATTEMPTS_LIMIT)),
                given(after(body)),
                given(body.string("afterFailure").map(text -> afterFailure(body.field("afterFailure"), text))));
    }

    /** The members of a PATCH: those of an add but the dependencies, which only an add or a PUT sets. */
    static JobChanges patch(JsonBody body) {
        body.allow("data", "scheduledAt", "priority", "group", "repeat", "maxAttempts");
        return changes(body);
    }

    /**
     * {@code after}: an array of at most {@link ValidChanges#MAX_AFTER} {@code {"type", "id"}}
     * objects, each entry named {@code after[i]} in errors; the engine checks the names.
     */
    private static Optional<List<JobRef>> after(JsonBody body) {
        Optional<List<JsonBody>> entries = body.objects("after");
        if (entries.isPresent() && entries.get().size() > JobChanges.MAX_AFTER) {
            throw new InvalidInputException("after", "after names at most " + JobChanges.MAX_AFTER + " jobs, not "
                    + entries.get().size());
        }
        return entries.map(list -> list.stream().map(entry -> {
            entry.allow("type", "id");
            return new JobRef(entry.requiredString("type"), entry.requiredString("id"));
        }).toList());
    }

    static AfterFailure afterFailure(String field, String text) {
        return switch (text) {
            case "cancel" -> AfterFailure.CANCEL;
            case "run" -> AfterFailure.RUN;
            default -> throw new InvalidInputException(field, field + " is \"cancel\" or \"run\", not "
                    + Problems.printable(text));
        };
    }

    static Priority priority(String field, String text) {
        return switch (text) {
            case "high" -> Priority.HIGH;
            case "low" -> Priority.LOW;
            default -> throw new InvalidInputException(field, field + " is \"high\" or \"low\", not "
                    + Problems.printable(text));
        };
    }

    /** The body's {@code outcome}, required: {@code succeeded} or {@code failed}. */
    static boolean succeeded(JsonBody body) {
        String outcome = body.requiredString("outcome");
        return switch (outcome) {
            case "succeeded" -> true;
            case "failed" -> false;
            default -> throw new InvalidInputException(body.field("outcome"), body.field("outcome")
                    + " is \"succeeded\" or \"failed\", not " + Problems.printable(outcome));
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
