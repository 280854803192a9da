package io.jobfoundry.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.StringWriter;
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
        StringWriter out = new StringWriter();
        try (JsonParser parser = MAPPER.createParser(source); JsonGenerator generator = MAPPER.createGenerator(out)) {
            parser.nextToken();
            for (String member : path) {
                seek(parser, member);
            }
            seek(parser, name);
            int depth = 0;
            do {
                JsonToken token = parser.currentToken();
                if (token.isNumeric()) {
                    generator.writeNumber(parser.getText());
                } else {
                    generator.copyCurrentEvent(parser);
                }
                if (token.isStructStart()) {
                    depth++;
                } else if (token.isStructEnd()) {
                    depth--;
                }
            } while (depth > 0 && parser.nextToken() != null);
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
