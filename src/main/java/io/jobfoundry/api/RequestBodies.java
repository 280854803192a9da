package io.jobfoundry.api;

import io.jobfoundry.StrictJson;
import io.quarkus.runtime.configuration.MemorySize;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Reads request bodies: size limit, content type, then {@link JsonBody}. */
@ApplicationScoped
class RequestBodies {

    private final long limit;

    @Inject
    RequestBodies(ApiConfig config,
            @ConfigProperty(name = "quarkus.rest.input-buffer-size") MemorySize inMemoryBodies) {
        this(config.maxBodySize().asLongValue(), inMemoryBodies.asLongValue());
    }

    RequestBodies(long limit, long inMemoryBodies) {
        // A body read ahead by BodyLimitRoute and larger than this reaches resources as zeros
        // (Quarkus REST hands it to a blocking stream and then again, emptied, to a memory one).
        if (limit > inMemoryBodies) {
            throw new IllegalStateException("jobfoundry.api.max-body-size (" + limit
                    + " bytes) is larger than quarkus.rest.input-buffer-size (" + inMemoryBodies
                    + " bytes), which is fixed at build time; lower the first or rebuild with a larger second");
        }
        this.limit = limit;
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
        // BodyLimitRoute refuses larger bodies before the REST layer sees them, those with a
        // Content-Length before they are read, the others as they are counted; this is the backstop.
        if (body.length > limit) {
            throw new BodyTooLargeException(limit);
        }
        if (contentType != null && !StrictJson.declaresJson(contentType)) {
            throw new UnsupportedBodyTypeException(contentType);
        }
        return JsonBody.parse(body);
    }

    /** Whether {@code contentType} parses as a media type at all ({@code json} does not: it lacks its {@code /}). */
    static boolean isMediaType(String contentType) {
        try {
            MediaType.valueOf(contentType);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
