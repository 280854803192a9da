package io.jobfoundry.api;

import io.jobfoundry.jobs.Counts;
import io.jobfoundry.jobs.TypeInfo;
import io.jobfoundry.jobs.TypeSettings;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

/** A type's configuration (durations in seconds) and its counts. */
@RegisterForReflection
@JsonPropertyOrder({"type", "activityTimeout", "maxAttempts", "priorityScheme", "backoff", "counts"})
public record TypeDto(String type, BigDecimal activityTimeout, int maxAttempts, List<Integer> priorityScheme,
        Backoff backoff, CountsDto counts) {

    @RegisterForReflection
    @JsonPropertyOrder({"base", "max"})
    public record Backoff(BigDecimal base, BigDecimal max) {
    }

    @RegisterForReflection
    @JsonPropertyOrder({"pending", "due", "running", "succeeded", "failed", "cancelled"})
    public record CountsDto(long pending, long due, long running, long succeeded, long failed, long cancelled) {
    }

    static TypeDto of(TypeInfo info) {
        TypeSettings s = info.settings();
        Counts c = info.counts();
        return new TypeDto(info.type(), seconds(s.activityTimeout()), s.maxAttempts(), List.of(s.highRun(), s.lowRun()),
                new Backoff(seconds(s.backoffBase()), seconds(s.backoffMax())),
                new CountsDto(c.pending(), c.due(), c.running(), c.succeeded(), c.failed(), c.cancelled()));
    }

    /** Whole seconds as an integer, otherwise with the milliseconds: 30, 0.5. */
    private static BigDecimal seconds(Duration duration) {
        BigDecimal seconds = BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros();
        return seconds.scale() < 0 ? seconds.setScale(0) : seconds;
    }
}
