package io.jobfoundry.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.jobfoundry.jobs.model.GroupCounts;
import io.jobfoundry.jobs.model.GroupPage;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A page of {@code GET /v1/types/{type}/groups}: {@code next} is the cursor of the following page, or null. */
@RegisterForReflection
@Schema(name = "GroupList", description = "A page of a type's fairness groups in name order.",
        requiredProperties = {"groups", "next"})
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"groups", "next"})
public record GroupListDto(List<Group> groups,
        @Schema(type = SchemaType.STRING, nullable = true,
                description = "the cursor of the next page; null on the last page") String next) {

    @RegisterForReflection
    @Schema(name = "Group", description = "A fairness group with pending or running jobs; pending includes due.",
            requiredProperties = {"group", "pending", "due", "running"})
    @JsonPropertyOrder({"group", "pending", "due", "running"})
    public record Group(@Schema(description = "\"\" is the default group", examples = "tenant-7") String group,
            long pending, long due, long running) {
    }

    static GroupListDto of(GroupPage page) {
        List<Group> groups = page.groups().stream()
                .map((GroupCounts g) -> new Group(g.group(), g.pending(), g.due(), g.running())).toList();
        return new GroupListDto(groups, page.next());
    }
}
