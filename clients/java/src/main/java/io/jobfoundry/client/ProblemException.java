package io.jobfoundry.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

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
     * @return its text, or {@code null} if absent
     */
    public String member(String name) {
        JsonNode value = problem.get(name);
        return value == null || value.isNull() ? null : value.asText();
    }

    /** @return the whole problem document (a {@code NullNode} if the answer carried none) */
    public JsonNode problem() {
        return problem;
    }

    /** A path the service does not serve at all (HTTP's own 404 or 405), as opposed to a missing job. */
    boolean unknownPath() {
        return (status == 404 || status == 405) && "about:blank".equals(type);
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
