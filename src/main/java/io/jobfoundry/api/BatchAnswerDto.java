package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.jobfoundry.jobs.model.Added;
import io.jobfoundry.jobs.model.ItemResult;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The answers of the batch calls. Typed rather than maps, so that Quarkus REST picks their writer
 * when it builds the application and Jackson writes them with the serializers it generates: a
 * map's every value was looked up by its class at run time, for each of a batch's items.
 */
final class BatchAnswerDto {

    private BatchAnswerDto() {
    }

    /** The answer of {@code POST /v1/jobs}. */
    @RegisterForReflection
    @Schema(name = "CreatedJobs", requiredProperties = "jobs")
    record Created(@Schema(description = "one per item, in the items' order") List<CreatedItem> jobs) {

        static Created of(List<Added> added) {
            return new Created(added.stream()
                    .map(a -> new CreatedItem(a.created() ? 201 : 200, JobDto.of(a.job())))
                    .toList());
        }
    }

    @RegisterForReflection
    @Schema(name = "CreatedJob", requiredProperties = {"status", "job"})
    @JsonPropertyOrder({"status", "job"})
    record CreatedItem(@Schema(description = "201: created; 200: a PUT item that matched its job") int status,
            JobDto job) {
    }

    /** The answer of {@code POST /v1/finish} and {@code POST /v1/heartbeat}. */
    @RegisterForReflection
    @Schema(name = "ItemResults", requiredProperties = "results")
    record Results(@Schema(description = "one per item, in the items' order") List<ResultItem> results) {

        static Results of(List<ItemResult> results) {
            return new Results(results.stream().map(Results::item).toList());
        }

        private static ResultItem item(ItemResult result) {
            return result.halt() == null ? new ResultItem(200, JobDto.of(result.job()), null)
                    : new ResultItem(409, null, result.halt().wireName());
        }
    }

    @RegisterForReflection
    @Schema(name = "ItemResult", requiredProperties = "status")
    @JsonPropertyOrder({"status", "job", "reason"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ResultItem(@Schema(description = "200: done; 409: halted, with its reason") int status,
            @Schema(description = "the job, with 200") JobDto job,
            @Schema(description = "why the item halted, with 409", enumeration = {"lease-lost", "removed", "cancelled"})
            String reason) {
    }
}
