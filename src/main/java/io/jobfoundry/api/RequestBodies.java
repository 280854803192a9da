package io.jobfoundry.api;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;

/** Reads request bodies: size limit, content type, then {@link JsonBody}. */
@ApplicationScoped
class RequestBodies {

    private final long limit;

    RequestBodies(ApiConfig config) {
        this.limit = config.maxBodySize().asLongValue();
    }

    long limit() {
        return limit;
    }

    /**
     * The body as a JSON object; an empty body is an empty object. A body without a content type is
     * read as JSON; one with a content type must be declared JSON ({@code application/json} or any
     * {@code +json} type such as {@code application/merge-patch+json}).
     */
    JsonBody read(String contentType, byte[] body) {
        if (body == null || body.length == 0) {
            return JsonBody.empty();
        }
        // Bodies sent with a Content-Length are refused before they are read (BodyLimitRoute);
        // this catches chunked ones.
        if (body.length > limit) {
            throw new BodyTooLargeException(limit);
        }
        if (contentType != null && !isJson(contentType)) {
            throw new UnsupportedBodyTypeException(contentType);
        }
        return JsonBody.parse(body);
    }

    private static boolean isJson(String contentType) {
        MediaType type;
        try {
            type = MediaType.valueOf(contentType);
        } catch (RuntimeException e) {
            return false; // not even a media type
        }
        return type.getType().equalsIgnoreCase("application")
                && (type.getSubtype().equalsIgnoreCase("json") || type.getSubtype().toLowerCase(java.util.Locale.ROOT).endsWith("+json"));
    }
}
