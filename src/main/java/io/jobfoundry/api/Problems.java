package io.jobfoundry.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/** application/problem+json documents (RFC 9457): {@code type, title, status, detail} and extra members. */
final class Problems {

    static final String MEDIA_TYPE = "application/problem+json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Problems() {
    }

    static Map<String, Object> document(ProblemType type, String detail) {
        return document(type.uri(), type.title(), type.status(), detail);
    }

    static Map<String, Object> document(String type, String title, int status, String detail) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", type);
        problem.put("title", title);
        problem.put("status", status);
        problem.put("detail", detail);
        return problem;
    }

    /** A body over {@code jobfoundry.api.max-body-size}, wherever it is caught. */
    static Map<String, Object> bodyTooLarge(long limit) {
        Map<String, Object> problem = document(ProblemType.BODY_TOO_LARGE, BodyTooLargeException.detail(limit));
        problem.put("limit", limit);
        return problem;
    }

    /** An error response carrying {@code problem}; {@link ProblemBodyWriter} gives it its type. */
    static Response.ResponseBuilder response(Map<String, Object> problem) {
        try {
            return Response.status((Integer) problem.get("status"))
                    .entity(new ProblemBody(MAPPER.writeValueAsBytes(problem)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem document of strings and numbers always serializes", e);
        }
    }

    static String json(Map<String, Object> problem) {
        try {
            return MAPPER.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a problem document of strings and numbers always serializes", e);
        }
    }

    /** Client text quoted in a detail: bounded and free of control characters. */
    static String printable(String text) {
        if (text == null) {
            return "(none)";
        }
        StringBuilder out = new StringBuilder("'");
        for (int i = 0; i < text.length() && i < 64; i++) {
            char c = text.charAt(i);
            out.append(Character.isISOControl(c) || Character.isSurrogate(c) ? '?' : c);
        }
        return out.append(text.length() > 64 ? "…'" : "'").toString();
    }
}
