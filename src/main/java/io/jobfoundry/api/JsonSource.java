package io.jobfoundry.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a member's value back from a request body as it was sent, for {@link JsonBody}: the tree
 * Jackson builds holds BigDecimals, which lose {@code -0} and respell exponents, and a job's data
 * must go back to its worker exactly as written.
 */
final class JsonSource {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private JsonSource() {
    }

    /**
     * The bytes of each element of the array at member {@code name} of the object at {@code path},
     * as sent, found in one pass. A batch's items each keep their own bytes, so that reading an
     * item's {@code data} back as written costs that item, not the whole body again.
     */
    static List<byte[]> elements(byte[] source, List<String> path, String name) {
        List<byte[]> elements = new ArrayList<>();
        try (JsonParser parser = MAPPER.createParser(source)) {
            parser.nextToken();
            for (String member : path) {
                seek(parser, member);
            }
            seek(parser, name);
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                int start = (int) parser.currentTokenLocation().getByteOffset();
                parser.skipChildren();
                int end = (int) parser.currentLocation().getByteOffset();
                elements.add(Arrays.copyOfRange(source, start, end));
            }
        } catch (IOException e) {
            throw new IllegalStateException("a body that parsed once parses again", e);
        }
        return elements;
    }

    /**
     * The value of member {@code name} of the object at {@code path}, copied from the body as sent: compact, with
     * each number's text as written (the tree holds BigDecimals, which lose {@code -0} and respell
     * exponents). The body was parsed once already, so reading it again cannot fail.
     */
    static String asWritten(byte[] source, List<String> path, String name) {
        int start;
        int end;
        try (JsonParser parser = MAPPER.createParser(source)) {
            parser.nextToken();
            for (String member : path) {
                seek(parser, member);
            }
            seek(parser, name);
            start = (int) parser.currentTokenLocation().getByteOffset();
            parser.skipChildren();
            end = (int) parser.currentLocation().getByteOffset();
        } catch (IOException e) {
            throw new IllegalStateException("a body that parsed once parses again", e);
        }
        String compact = withoutWhitespace(source, start, end);
        return compact != null ? compact : regenerated(source, start, end);
    }

    /**
     * The value's bytes without the whitespace between its tokens, which is what {@link #regenerated}
     * writes when no string in it has an escape: the parser refused raw control characters, and the
     * generator escapes nothing else. {@code null} where the two could differ: with an escape (the
     * generator writes some as the characters they stand for, the six-character escape of {@code A}
     * as {@code A}, an escaped slash as a slash, and stored data has always been written so), and
     * with bytes that are not well-formed UTF-8 (Jackson's reading of those, such as an encoded
     * surrogate, is what the checks after this one judge).
     */
    private static String withoutWhitespace(byte[] source, int start, int end) {
        byte[] out = new byte[end - start];
        int length = 0;
        boolean inString = false;
        boolean ascii = true;
        for (int i = start; i < end; i++) {
            byte b = source[i];
            if (inString) {
                if (b == '\\') {
                    return null;
                }
                inString = b != '"';
                ascii &= b >= 0;
            } else if (b == '"') {
                inString = true;
            } else if (b == ' ' || b == '\n' || b == '\r' || b == '\t') {
                continue;
            }
            out[length++] = b;
        }
        if (ascii) {
            return new String(out, 0, length, StandardCharsets.ISO_8859_1);
        }
        String text = new String(out, 0, length, StandardCharsets.UTF_8);
        // The decoder replaces what is malformed; the text then no longer encodes to the bytes.
        byte[] again = text.getBytes(StandardCharsets.UTF_8);
        return Arrays.equals(again, 0, again.length, out, 0, length) ? text : null;
    }

    /** The value at {@code source[start, end)} written again token by token, numbers as their text. */
    private static String regenerated(byte[] source, int start, int end) {
        StringWriter out = new StringWriter();
        try (JsonParser parser = MAPPER.createParser(source, start, end - start);
                JsonGenerator generator = MAPPER.createGenerator(out)) {
            while (parser.nextToken() != null) {
                JsonToken token = parser.currentToken();
                if (token.isNumeric()) {
                    generator.writeNumber(parser.getText());
                } else {
                    generator.copyCurrentEvent(parser);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("a body that parsed once parses again", e);
        }
        return out.toString();
    }

    /** Moves the parser, standing on an object's start, onto the value of its member {@code name}. */
    private static void seek(JsonParser parser, String name) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            boolean found = name.equals(parser.currentName());
            parser.nextToken();
            if (found) {
                return;
            }
            parser.skipChildren();
        }
        throw new IllegalStateException("member " + name + " is in the tree but not in the body");
    }

}
