package io.jobfoundry.client;

import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;

/**
 * The members of a create or {@code PUT}: immutable, each method returns a copy with one more member.
 * A member never set is left out of the request, which the service reads as "unchanged" (or the default
 * for a new job); that differs from {@code null}, so only {@link #data(Object)} and {@link #repeat(String)}
 * accept {@code null} (no data, no repeat).
 */
public final class JobSpec {

    private final ObjectNode members;

    private JobSpec(ObjectNode members) {
        this.members = members;
    }

    /** @return a spec with no members: every default */
    public static JobSpec empty() {
        return new JobSpec(Json.MAPPER.createObjectNode());
    }

    /**
     * A spec with data.
     *
     * @param data anything Jackson can write as a JSON object, or {@code null} for no data
     * @return the new spec
     */
    public static JobSpec withData(Object data) {
        return empty().data(data);
    }

    /**
     * @param data anything Jackson can write as a JSON object (a {@code Map}, a record, a {@code JsonNode}),
     *     or {@code null} for no data
     * @return a copy with {@code data}
     */
    public JobSpec data(Object data) {
        return with("data", data == null ? NullNode.getInstance() : Json.MAPPER.valueToTree(data));
    }

    /**
     * @param when when the job becomes due
     * @return a copy with {@code scheduledAt}
     */
    public JobSpec scheduledAt(Instant when) {
        return with("scheduledAt", Json.MAPPER.getNodeFactory().textNode(DateTimeFormatter.ISO_INSTANT.format(when)));
    }

    /**
     * @param priority high or low
     * @return a copy with {@code priority}
     */
    public JobSpec priority(Priority priority) {
        return with("priority", Json.MAPPER.getNodeFactory().textNode(priority.wireName()));
    }

    /**
     * @param group the fairness group (a tenant, a customer)
     * @return a copy with {@code group}
     */
    public JobSpec group(String group) {
        return with("group", Json.MAPPER.getNodeFactory().textNode(group));
    }

    /**
     * @param repeat a repeat expression such as {@code FINISHED, +1 HOUR}, or {@code null} to stop repeating
     * @return a copy with {@code repeat}
     */
    public JobSpec repeat(String repeat) {
        return with("repeat", repeat == null ? NullNode.getInstance() : Json.MAPPER.getNodeFactory().textNode(repeat));
    }

    /**
     * @param maxAttempts attempts a run may take (1–1000)
     * @return a copy with {@code maxAttempts}
     */
    public JobSpec maxAttempts(int maxAttempts) {
        return with("maxAttempts", Json.MAPPER.getNodeFactory().numberNode(maxAttempts));
    }

    /**
     * The jobs this one waits for: it is pending but not due until every one of them has finished
     * {@code succeeded} (on a {@code PUT} of a pending job, they replace its dependencies; an empty list
     * removes them). In a batch an item may name earlier items of the same batch.
     *
     * @param jobs at most 100 existing jobs, e.g. {@code created.ref()}
     * @return a copy with {@code after}
     */
    public JobSpec after(List<JobRef> jobs) {
        com.fasterxml.jackson.databind.node.ArrayNode refs = Json.MAPPER.createArrayNode();
        for (JobRef job : jobs) {
            refs.addObject().put("type", job.type()).put("id", job.id());
        }
        return with("after", refs);
    }

    /**
     * @param jobs the jobs this one waits for, as {@link #after(List)}
     * @return a copy with {@code after}
     */
    public JobSpec after(JobRef... jobs) {
        return after(Arrays.asList(jobs));
    }

    /**
     * @param afterFailure what becomes of this job when one it waits for fails, is cancelled or removed
     * @return a copy with {@code afterFailure}
     */
    public JobSpec afterFailure(AfterFailure afterFailure) {
        return with("afterFailure", Json.MAPPER.getNodeFactory().textNode(afterFailure.wireName()));
    }

    /** @return the members as the JSON object sent (a copy) */
    public ObjectNode toJson() {
        return members.deepCopy();
    }

    private JobSpec with(String name, com.fasterxml.jackson.databind.JsonNode value) {
        ObjectNode copy = members.deepCopy();
        copy.set(name, value);
        return new JobSpec(copy);
    }

    @Override
    public String toString() {
        return members.toString();
    }
}
