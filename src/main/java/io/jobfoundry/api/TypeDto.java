package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.jobfoundry.jobs.model.Counts;
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
        requiredProperties = {"type", "activityTimeout", "maxAttempts", "priorityScheme", "backoff", "retention", "paused",
            "oldestDueAt", "counts"})
@JsonPropertyOrder({"type", "activityTimeout", "maxAttempts", "priorityScheme", "backoff", "retention", "paused",
    "oldestDueAt", "counts"})
public record TypeDto(@Schema(examples = "email") String type,
        @Schema(description = "seconds a running job may go without heartbeat or finish", examples = "30")
        BigDecimal activityTimeout,
        int maxAttempts,
        @Schema(description = "[high, low]", minItems = 2, maxItems = 2, examples = "[2, 1]")
        List<Integer> priorityScheme,
        Backoff backoff,
        RetentionDto retention,
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
                RetentionDto.of(s.retention()), info.paused(), WireTimes.format(info.oldestDueAt()),
                new CountsDto(c.pending(), c.due(), c.running(), c.succeeded(), c.failed(), c.cancelled()));
    }
}
