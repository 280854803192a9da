package io.jobfoundry.jobs.records;

import io.jobfoundry.jobs.model.AfterFailure;
import io.jobfoundry.jobs.model.Change;
import io.jobfoundry.jobs.model.DataTooLargeException;
import io.jobfoundry.jobs.model.InvalidJobRequestException;
import io.jobfoundry.jobs.model.JobChanges;
import io.jobfoundry.jobs.model.JobRef;
import io.jobfoundry.jobs.model.Priority;
import io.jobfoundry.jobs.model.TypeNames;
import io.jobfoundry.jobs.model.TypeSettings;
import io.jobfoundry.repeat.CronRepeat;
import io.jobfoundry.repeat.Repeat;
import io.jobfoundry.repeat.RepeatParser;
import java.time.Instant;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A request's changes to a job, checked before any transaction, so that a bad request changes
 * nothing: the repeat parsed (and stored normalized; a cron one kept parsed as {@code cron}, for
 * {@link #firstRun}), the time in the engine's microseconds.
 */
public record ValidChanges(Change<String> data, Optional<Long> scheduledAt, Change<Priority> priority,
        Change<String> group, Change<String> repeat, CronRepeat cron, Change<Integer> maxAttempts,
        Change<List<JobRef>> after, Change<AfterFailure> afterFailure) {

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
        Repeat parsed = changes.repeat().given() && changes.repeat().value() != null
                ? RepeatParser.parse(changes.repeat().value()).requireProgress() : null;
        Change<String> repeat = changes.repeat().map(text -> parsed.normalized());
        Optional<Long> at = changes.scheduledAt().given() && changes.scheduledAt().value() != null
                ? Optional.of(Times.micros(changes.scheduledAt().value()))
                : Optional.empty();
        if (changes.afterFailure().given() && changes.afterFailure().value() == null) {
            throw new InvalidJobRequestException("afterFailure", "afterFailure is cancel or run");
        }
        if (changes.after().given()) {
            checkAfter(type, id, changes.after().value());
        }
        return new ValidChanges(changes.data(), at, changes.priority(), changes.group(), repeat,
                parsed instanceof CronRepeat cron ? cron : null, changes.maxAttempts(),
                changes.after().map(List::copyOf), changes.afterFailure());
    }

    /**
     * When a new job with these changes runs: at {@code scheduledAt} if given, else now, but with a
     * cron {@code repeat} at its first slot after now, as cron starts (and River's periodic jobs
     * unless told to run on start): a nightly {@code CRON 0 2 * * *} registered at noon must not run
     * at noon. A finished job added again runs now, as a bulk retry or a resubmit runs it: an
     * operator who adds a failed nightly job again wants it run.
     */
    public long firstRun(long now) {
        if (scheduledAt.isPresent()) {
            return scheduledAt.get();
        }
        if (cron == null) {
            return now;
        }
        Instant from = Times.instant(now);
        return Times.micros(cron.next(from, from, from));
    }

    /**
     * At most {@link #JobChanges.MAX_AFTER} jobs, each with a valid type and id, none twice, not the job itself
     * ({@code id} null: a create, whose id nobody can name yet). Whether they exist is the add's to
     * find out, in its transaction.
     */
    private static void checkAfter(String type, String id, List<JobRef> after) {
        if (after == null) {
            throw new InvalidJobRequestException("after", "after is an array of {\"type\", \"id\"}; [] for none");
        }
        if (after.size() > JobChanges.MAX_AFTER) {
            throw new InvalidJobRequestException("after", "a job waits for at most " + JobChanges.MAX_AFTER + " jobs, not "
                    + after.size());
        }
        Set<JobRef> seen = new HashSet<>();
        for (int i = 0; i < after.size(); i++) {
            JobRef ref = after.get(i);
            String field = "after[" + i + "]";
            try {
                TypeNames.checkType(ref.type());
                TypeNames.checkId(ref.id());
            } catch (InvalidJobRequestException e) {
                throw new InvalidJobRequestException(field + "." + e.field(), field + ": " + e.getMessage());
            }
            if (ref.type().equals(type) && ref.id().equals(id)) {
                throw new InvalidJobRequestException(field, "a job cannot wait for itself");
            }
            if (!seen.add(ref)) {
                throw new InvalidJobRequestException(field, field + " names job " + ref + " again");
            }
        }
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
