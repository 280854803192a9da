package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.DataTooLargeException;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.repeat.RepeatParser;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A request's changes to a job, checked before any transaction, so that a bad request changes
 * nothing: the repeat parsed (and stored normalized), the time in the engine's microseconds.
 */
public record ValidChanges(Change<String> data, Optional<Long> scheduledAt, Change<Priority> priority,
        Change<String> group, Change<String> repeat, Change<Integer> maxAttempts) {

    /** Checks {@code changes} to job {@code id} of {@code type}; throws what a client is told if they are bad. */
    public static ValidChanges of(String type, String id, JobChanges changes, int maxDataBytes) {
        checkData(type, id, changes.data(), maxDataBytes);
        if (changes.priority().given() && changes.priority().value() == null) {
            throw new InvalidJobRequestException("priority", "priority is high or low");
        }
        if (changes.group().given()) {
            TypeNames.checkGroup(changes.group().value());
        }
        if (changes.maxAttempts().given()) {
            if (changes.maxAttempts().value() == null) {
                throw new InvalidJobRequestException("maxAttempts", "maxAttempts must be a number");
            }
            TypeSettings.checkMaxAttempts(changes.maxAttempts().value());
        }
        Change<String> repeat = changes.repeat().map(text -> RepeatParser.parse(text).requireProgress().normalized());
        Optional<Long> at = changes.scheduledAt().given() && changes.scheduledAt().value() != null
                ? Optional.of(Times.micros(changes.scheduledAt().value()))
                : Optional.empty();
        return new ValidChanges(changes.data(), at, changes.priority(), changes.group(), repeat, changes.maxAttempts());
    }

    /** Refuses data larger than {@code maxDataBytes} serialized. */
    public static void checkData(String type, String id, Change<String> data, int maxDataBytes) {
        if (data.given() && data.value() != null) {
            int size = data.value().getBytes(StandardCharsets.UTF_8).length;
            if (size > maxDataBytes) {
                throw new DataTooLargeException(type, id, size, maxDataBytes);
            }
        }
    }
}
