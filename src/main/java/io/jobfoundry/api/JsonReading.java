package io.jobfoundry.api;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import io.jobfoundry.StrictJson;
import java.io.IOException;
import java.util.regex.Pattern;

/**
 * Reads a request body into a JSON tree for {@link JsonBody}, strictly ({@link StrictJson}: no
 * duplicate members, comments or trailing tokens; numbers exact and as written), and turns
 * whatever the reader refuses into a {@code 400} that says where, without the reader's own
 * internals.
 */
final class JsonReading {

    private JsonReading() {
    }

    /** The body's tree, or null when it holds only whitespace; {@code bytes} is not empty. */
    static JsonNode read(byte[] bytes) {
        requireUtf8(bytes);
        JsonNode node;
        try (JsonParser parser = StrictJson.MAPPER.createParser(bytes)) {
            try {
                node = StrictJson.MAPPER.readTree(parser);
            } catch (NumberFormatException e) {
                // Jackson lets BigDecimal's refusal of an exponent beyond its 32-bit scale escape
                // unwrapped; the parser still knows where it stood.
                throw numberOutOfRange(parser);
            }
        } catch (StreamConstraintsException e) {
            throw new InvalidInputException(null, "the body exceeds a limit of the JSON reader: "
                    + e.getOriginalMessage() + location(e));
        } catch (JsonProcessingException e) {
            throw new InvalidInputException(null, "the body is not valid JSON: " + readable(e.getOriginalMessage())
                    + location(e));
        } catch (IOException e) {
            throw new InvalidInputException(null, "the body is not valid JSON");
        }
        return node == null || node.isMissingNode() ? null : node;
    }

    /**
     * JSON between systems is UTF-8 (RFC 8259, 8.1), and only UTF-8 is read here: Jackson would take
     * a body whose first bytes hold a zero for UTF-16 or UTF-32 and read it as characters, without the
     * byte offsets {@link JsonSource} copies data by; and its UTF-8 reader accepts overlong forms and
     * encoded surrogates, so the same text could arrive as different bytes. A zero byte in the first
     * four is what marks those encodings (a JSON text starts with an ASCII character); a zero anywhere
     * else is a raw control character, which the reader refuses itself.
     */
    private static void requireUtf8(byte[] bytes) {
        for (int i = 0; i < Math.min(4, bytes.length); i++) {
            if (bytes[i] == 0) {
                throw new InvalidInputException(null, "the body is not UTF-8 (a zero byte among its first four, as in"
                        + " UTF-16 or UTF-32): JSON is sent as UTF-8");
            }
        }
        int i = 0;
        while (i < bytes.length) {
            if (bytes[i] >= 0) {
                i++;
                continue;
            }
            int lead = bytes[i] & 0xFF;
            int length = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
            int codePoint = lead & (0x7F >> length);
            for (int k = 1; k < length && codePoint >= 0; k++) {
                int next = i + k < bytes.length ? bytes[i + k] & 0xFF : 0;
                codePoint = (next & 0xC0) == 0x80 ? codePoint << 6 | next & 0x3F : -1;
            }
            boolean shortest = length == 2 || length == 3 && codePoint >= 0x800 || length == 4 && codePoint >= 0x10000;
            if (length == 0 || codePoint < 0 || !shortest || codePoint > 0x10FFFF
                    || codePoint >= 0xD800 && codePoint <= 0xDFFF) {
                throw new InvalidInputException(null, "the body is not UTF-8: the bytes from offset " + i
                        + " are no valid UTF-8 sequence (an overlong form, a surrogate, a stray or missing"
                        + " continuation byte); JSON is sent as UTF-8");
            }
            i += length;
        }
    }

    /** A number BigDecimal cannot hold, named by where it stands: its member, its JSON pointer, its line. */
    private static InvalidInputException numberOutOfRange(JsonParser parser) {
        JsonStreamContext context = parser.getParsingContext();
        String pointer = context.pathAsPointer().toString();
        while (context.getParent() != null && context.getParent().getParent() != null) {
            context = context.getParent();
        }
        String member = context.inObject() ? context.getCurrentName() : null;
        JsonLocation at = parser.currentTokenLocation();
        return new InvalidInputException(member, "the number at " + Problems.printable(pointer) + " (line "
                + at.getLineNr() + ", column " + at.getColumnNr() + ") is out of range: its exponent must lie within"
                + " ±2147483647, also when reduced by the number of digits after its decimal point");
    }

    /**
     * Jackson's message without its own internals: where it names a place in the body it says
     * {@code [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1,
     * column: 2]}, which tells a client nothing but the line and column.
     */
    static String readable(String message) {
        String located = SOURCE.matcher(message).replaceAll("line $1, column $2");
        // Jackson's advice names its own switches ("enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS`"),
        // which a client cannot turn on: what it refused is no JSON, and that is what the client needs.
        String unadvised = ENABLE_ADVICE.matcher(located).replaceAll(" (JSON has no such value)");
        return FEATURE_NOT_ENABLED.matcher(unadvised).replaceAll("");
    }

    private static final Pattern SOURCE = Pattern.compile("\\[Source: [^;\\]]*(?:;[^;\\]]*?)?; line: (\\d+), column: (\\d+)\\]");
    private static final Pattern ENABLE_ADVICE = Pattern.compile(": enable `[^`]*` to allow");
    private static final Pattern FEATURE_NOT_ENABLED = Pattern.compile(" ?\\(not recognized as one since Feature '[A-Z_]+'"
            + " not enabled for parser\\)");

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? ""
                : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }
}
