package io.jobfoundry.api;

import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.UriInfo;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Refuses, for every endpoint at once, path segments that Quarkus REST would silently turn into a
 * different name before any resource sees them:
 * <ul>
 * <li>percent-encoded bytes that are not UTF-8 ({@code %FF}, {@code %C3}, an encoded surrogate
 * {@code %ED%A0%80}): decoding replaces each with U+FFFD, so different ids would name one job;</li>
 * <li>an unencoded {@code ;}: JAX-RS takes what follows as matrix parameters and drops them, so
 * {@code PUT /v1/jobs/t/a;b} would create the job {@code a}.</li>
 * </ul>
 * A genuine U+FFFD ({@code %EF%BF%BD}) and an encoded {@code %3B} are characters like any other.
 * Quarkus REST hands out path parameters only decoded, so the check reads the path as sent.
 */
public class PathSegmentCheck {

    @ServerRequestFilter
    public void check(UriInfo uri, HttpServerRequest request) {
        String path = request.path();
        int start = 0;
        while (start < path.length()) {
            int end = path.indexOf('/', start);
            end = end < 0 ? path.length() : end;
            String segment = path.substring(start, end);
            int semicolon = segment.indexOf(';');
            if (semicolon >= 0) {
                throw new InvalidInputException(parameterOf(segment.substring(0, semicolon), uri),
                        "a ';' in a type or id must be percent-encoded as %3B; this API takes no matrix parameters");
            }
            if (!plainAscii(segment) && decode(segment, CodingErrorAction.REPORT) == null) {
                String name = parameterOf(segment, uri);
                throw new InvalidInputException(name, (name == null ? "the path segment " : "the " + name + " ")
                        + Problems.printable(segment) + " is not UTF-8 once percent-decoded: percent-encode the UTF-8 "
                        + "bytes of each character (é is %C3%A9)");
            }
            start = end + 1;
        }
    }

    /** Every request passes here: the common segment, ASCII without escapes, needs no decoding. */
    private static boolean plainAscii(String segment) {
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '%' || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /**
     * The path parameter Quarkus REST read from {@code segment}: the one whose value is the segment
     * decoded as it decodes it, with U+FFFD for what is not UTF-8. Null for a fixed segment (the
     * {@code accept} of {@code /v1/accept;x}).
     */
    private static String parameterOf(String segment, UriInfo uri) {
        String decoded = decode(segment, CodingErrorAction.REPLACE);
        for (Map.Entry<String, List<String>> parameter : uri.getPathParameters().entrySet()) {
            if (parameter.getValue().get(0).equals(decoded)) {
                return parameter.getKey();
            }
        }
        return null;
    }

    /**
     * The segment percent-decoded as UTF-8; with {@code REPORT}, null when the bytes are not UTF-8
     * (Java's decoder also refuses overlong forms and encoded surrogates) or an escape is broken.
     */
    static String decode(String segment, CodingErrorAction malformed) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '%') {
                int high = i + 2 < segment.length() ? Character.digit(segment.charAt(i + 1), 16) : -1;
                int low = high < 0 ? -1 : Character.digit(segment.charAt(i + 2), 16);
                if (low < 0) {
                    return null;
                }
                bytes.write(high << 4 | low);
                i += 2;
            } else {
                int end = Character.isHighSurrogate(c) && i + 1 < segment.length() ? i + 2 : i + 1;
                bytes.writeBytes(segment.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end - 1;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(malformed).onUnmappableCharacter(malformed)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
