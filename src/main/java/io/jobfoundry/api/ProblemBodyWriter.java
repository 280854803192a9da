package io.jobfoundry.api;

import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyWriter;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

/**
 * Writes every error response's {@link ProblemBody} and sets its {@code Content-Type} to
 * {@code application/problem+json} as it does (JAX-RS lets a writer change the headers before it
 * writes). The responses themselves name no type: Quarkus REST looks up the writer of an error's
 * entity by its media type on every response, and for a type with a suffix ({@code +json}) that
 * look-up compiled a regular expression and matched the writers against three media types each
 * time, a tenth of the CPU of a 404 (JFR, bench/request-cost.sh). Under the resource's own type,
 * or none, the look-up is the plain one.
 */
@Provider
@Produces(MediaType.WILDCARD)
public class ProblemBodyWriter implements MessageBodyWriter<ProblemBody> {

    @Override
    public boolean isWriteable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == ProblemBody.class;
    }

    @Override
    public void writeTo(ProblemBody body, Class<?> type, Type genericType, Annotation[] annotations,
            MediaType mediaType, MultivaluedMap<String, Object> headers, OutputStream out) throws IOException {
        headers.putSingle(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE);
        out.write(body.json());
    }
}
