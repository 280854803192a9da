package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.jobfoundry.jobs.model.Concurrency;
import io.jobfoundry.jobs.model.Counts;
import io.jobfoundry.jobs.model.PushTarget;
import io.jobfoundry.jobs.model.RateLimit;
import io.jobfoundry.jobs.model.Retention;
import io.jobfoundry.jobs.model.TypeInfo;
import io.jobfoundry.jobs.model.TypeSettings;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A type's configuration (durations in seconds) and its counts. */
@RegisterForReflection
@Schema(name = "Type", description = "A type's settings (durations in seconds) and its job counts.",
        requiredProperties = {"type", "activityTimeout", "maxAttempts", "priorityScheme", "backoff", "retention", "push",
            "concurrency", "rateLimit", "paused", "oldestDueAt", "counts"})
@JsonPropertyOrder({"type", "activityTimeout", "maxAttempts", "priorityScheme", "backoff", "retention", "push",
    "concurrency", "rateLimit", "paused", "oldestDueAt", "counts"})
public record TypeDto(@Schema(examples = "email") String type,
        @Schema(description = "seconds a running job may go without heartbeat or finish", examples = "30")
        BigDecimal activityTimeout,
        int maxAttempts,
        @Schema(description = "[high, low]", minItems = 2, maxItems = 2, examples = "[2, 1]")
        List<Integer> priorityScheme,
        Backoff backoff,
        RetentionDto retention,
        @Schema(nullable = true, description = "the HTTP target the service delivers the type's jobs to; null: "
                + "processors pull them") Push push,
        ConcurrencyDto concurrency,
        @Schema(nullable = true, description = "at most count starts in any window of seconds; null: no rate limit")
        RateLimitDto rateLimit,
        @Schema(description = "a paused type hands out no job (POST /v1/types/{type}/pause, /resume)")
        boolean paused,
        @Schema(type = SchemaType.STRING, nullable = true, format = "date-time",
                description = "the due time of the job that has waited longest; null when none is due")
        String oldestDueAt,
        CountsDto counts) {

    @RegisterForReflection
    @Schema(name = "Backoff", description = "retry delays in seconds: base·2^(attempt−1), at most max",
            requiredProperties = {"base", "max"})
    @JsonPropertyOrder({"base", "max"})
    public record Backoff(BigDecimal base, BigDecimal max) {
    }

    @RegisterForReflection
    @Schema(name = "Retention", description = "seconds a finished job is kept, by result, before it is removed: "
            + "0 removes it when it finishes, null keeps it", requiredProperties = {"succeeded", "failed", "cancelled"})
    @JsonPropertyOrder({"succeeded", "failed", "cancelled"})
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record RetentionDto(@Schema(nullable = true, examples = "86400") BigDecimal succeeded,
            @Schema(nullable = true, examples = "604800") BigDecimal failed,
            @Schema(nullable = true, examples = "86400") BigDecimal cancelled) {

        static RetentionDto of(Retention r) {
            return new RetentionDto(seconds(r.succeeded()), seconds(r.failed()), seconds(r.cancelled()));
        }

        private static BigDecimal seconds(Duration kept) {
            return kept == null ? null : TypeSettings.seconds(kept);
        }
    }

    @RegisterForReflection
    @Schema(name = "Push", description = "push delivery: each due job is POSTed to url (docs/api.md, Push delivery)",
            requiredProperties = {"url", "timeout", "concurrency"})
    @JsonPropertyOrder({"url", "timeout", "concurrency"})
    public record Push(@Schema(examples = "https://hooks.example.com/jobs/email") String url,
            @Schema(description = "seconds the target has to answer, at most activityTimeout", examples = "30")
            BigDecimal timeout,
            @Schema(description = "calls in flight at most, per replica", examples = "10") int concurrency) {

        static Push of(PushTarget target) {
            return target == null ? null
                    : new Push(target.url(), TypeSettings.seconds(target.timeout()), target.concurrency());
        }
    }

    @RegisterForReflection
    @Schema(name = "Concurrency", description = "jobs running at once at most, of the type (max) and of each "
            + "group (perGroup), across replicas; null: no limit", requiredProperties = {"max", "perGroup"})
    @JsonPropertyOrder({"max", "perGroup"})
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ConcurrencyDto(@Schema(nullable = true, examples = "10") Integer max,
            @Schema(nullable = true, examples = "2") Integer perGroup) {

        static ConcurrencyDto of(Concurrency c) {
            return new ConcurrencyDto(c.max(), c.perGroup());
        }
    }

    @RegisterForReflection
    @Schema(name = "RateLimit", description = "starts at most count in any window of seconds, of the type or, with "
            + "perGroup, of each group, across replicas", requiredProperties = {"count", "seconds", "perGroup"})
    @JsonPropertyOrder({"count", "seconds", "perGroup"})
    public record RateLimitDto(@Schema(examples = "100") int count, @Schema(examples = "60") BigDecimal seconds,
            boolean perGroup) {

        static RateLimitDto of(RateLimit r) {
            return r == null ? null : new RateLimitDto(r.count(), TypeSettings.seconds(r.window()), r.perGroup());
        }
    }

    @RegisterForReflection
    @Schema(name = "Counts", description = "jobs of the type by state; pending includes due",
            requiredProperties = {"pending", "due", "running", "succeeded", "failed", "cancelled"})
    @JsonPropertyOrder({"pending", "due", "running", "succeeded", "failed", "cancelled"})
    public record CountsDto(long pending, long due, long running, long succeeded, long failed, long cancelled) {
    }

    static TypeDto of(TypeInfo info) {
        TypeSettings s = info.settings();
        Counts c = info.counts();
        return new TypeDto(info.type(), TypeSettings.seconds(s.activityTimeout()), s.maxAttempts(),
                List.of(s.highRun(), s.lowRun()),
                new Backoff(TypeSettings.seconds(s.backoffBase()), TypeSettings.seconds(s.backoffMax())),
                RetentionDto.of(s.retention()), Push.of(s.push()), ConcurrencyDto.of(s.concurrency()),
                RateLimitDto.of(s.rateLimit()), info.paused(), WireTimes.format(info.oldestDueAt()),
                new CountsDto(c.pending(), c.due(), c.running(), c.succeeded(), c.failed(), c.cancelled()));
    }
}
