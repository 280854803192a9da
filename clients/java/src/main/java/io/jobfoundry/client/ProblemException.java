package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The service answered with an error: an RFC 9457 problem document ({@code application/problem+json})
 * with {@code type}, {@code title}, {@code status}, {@code detail} and any extra members such as
 * {@code field}, {@code reason}, {@code limit} or {@code errors}.
 */
public class ProblemException extends JobfoundryException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private final String title;
    private final String detail;
    private final transient JsonNode problem;

    /**
     * A problem answer.
     *
     * @param status the HTTP status
     * @param problem the problem document as the service sent it ({@code null} if the answer had no JSON body)
     */
    public ProblemException(int status, JsonNode problem) {
        super(message(status, problem));
        this.status = status;
        this.problem = problem == null ? NullNode.getInstance() : problem;
        this.type = text(this.problem, "type", "about:blank");
        this.title = text(this.problem, "title", null);
        this.detail = text(this.problem, "detail", null);
    }

    /** @return the HTTP status, e.g. 400, 404, 409, 413, 503 */
    public int status() {
        return status;
    }

    /** @return the problem's {@code type} URI, e.g. {@code tag:jobfoundry.io,2026:problem/halt}; {@code about:blank} for HTTP's own errors */
    public String type() {
        return type;
    }

    /** @return the problem's {@code title}, or {@code null} */
    public String title() {
        return title;
    }

    /** @return the problem's {@code detail}: what was wrong, for a human; or {@code null} */
    public String detail() {
        return detail;
    }

    /**
     * An extra member of the problem document, such as {@code field} or {@code reason}.
     *
     * @param name the member's name
     * @return its text; for an array or object (such as {@code errors}) its JSON text; {@code null} if absent
     */
    public String member(String name) {
        JsonNode value = problem.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        // asText() of an array or object is "", which would read as a member that is there but empty.
        return value.isContainerNode() ? value.toString() : value.asText();
    }

    /**
     * The invalid items of a refused batch ({@code 400} to {@code POST /v1/jobs}, {@code /v1/finish},
     * {@code /v1/heartbeat}): nothing in the batch was done.
     *
     * @return one entry per invalid item, in the service's order; empty when the problem names none
     */
    public List<ItemError> errors() {
        List<ItemError> errors = new ArrayList<>();
        for (JsonNode e : problem.path("errors")) {
            if (e.path("index").isIntegralNumber()) {
                errors.add(new ItemError(e.get("index").asInt(), text(e, "field", null), text(e, "detail", null)));
            }
        }
        return List.copyOf(errors);
    }

    /**
     * One invalid item of a refused batch.
     *
     * @param index the item's place in the batch, from 0
     * @param field the member at fault, e.g. {@code jobs[3].repeat}; {@code null} if the service named none
     * @param detail what is wrong with it
     */
    public record ItemError(int index, String field, String detail) {
    }

    /** @return the whole problem document (a {@code NullNode} if the answer carried none) */
    public JsonNode problem() {
        return problem;
    }

    /** A path the service does not serve at all (HTTP's own 404 or 405), as opposed to a missing job. */
    boolean unknownPath() {
        return (status == 404 || status == 405) && "about:blank".equals(type);
    }

    /** A 400 or 413: the service will answer the same request the same way, however often it is sent. */
    boolean refusedForGood() {
        return status == 400 || status == 413;
    }

    private static String text(JsonNode node, String name, String fallback) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? fallback : value.asText();
    }

    private static String message(int status, JsonNode problem) {
        if (problem == null || problem.get("detail") == null) {
            return "HTTP " + status;
        }
        return "HTTP " + status + ": " + problem.get("detail").asText();
    }
}
